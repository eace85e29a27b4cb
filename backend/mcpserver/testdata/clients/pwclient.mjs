// What a client written for Playwright MCP does with the MCP SDK: it starts the server,
// calls tools and reads its replies' sections (### Page, ### Snapshot, ### Error, ...).
//
// MCP_SERVER is {command, args, env, cwd}: how to start the server over standard input and
// output.
import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const server = JSON.parse(process.env.MCP_SERVER);

// connect starts the server and connects a client named name to it.
export async function connect(name) {
  const client = new Client({ name, version: '1' });
  await client.connect(new StdioClientTransport({ ...server, stderr: 'inherit' }), { timeout: 120000 });
  return client;
}

// sections splits a reply at its "### " headings.
export function sections(text) {
  const out = {};
  for (const part of text.split(/^### /m).slice(1)) {
    const nl = part.indexOf('\n');
    out[part.slice(0, nl).trim()] = part.slice(nl + 1);
  }
  return out;
}

// fencedBlock is the content of the first fenced code block in text, whatever its fence.
function fencedBlock(text) {
  const m = text.match(/^(`{3,})[a-z]*\n([\s\S]*?)\n\1$/m);
  return m ? m[2] : undefined;
}

// snapshotOf is a reply's snapshot: inline YAML, or the file its section links to.
function snapshotOf(s) {
  const section = s['Snapshot'];
  if (section === undefined)
    return undefined;
  const inline = fencedBlock(section);
  if (inline !== undefined)
    return inline;
  const link = section.match(/\(([^)]+\.ya?ml)\)/) ?? section.match(/(\S+\.ya?ml)/);
  return link ? fs.readFileSync(path.resolve(server.cwd ?? '.', link[1]), 'utf8') : undefined;
}

function pageOf(s) {
  const section = s['Page'] ?? '';
  return { url: (section.match(/^- Page URL: (.*)$/m) ?? [])[1], title: (section.match(/^- Page Title: (.*)$/m) ?? [])[1] };
}

// caller is a function that calls a tool of client and reads its reply, noting each call in
// calls.
export function caller(client, calls) {
  return async function call(name, args = {}) {
    const r = await client.callTool({ name, arguments: args }, undefined, { timeout: 120000 });
    const text = r.content.filter(c => c.type === 'text').map(c => c.text).join('\n');
    const s = sections(text);
    const reply = { tool: name, isError: !!r.isError, sections: Object.keys(s), section: s, page: pageOf(s), snapshot: snapshotOf(s), text, structured: r.structuredContent };
    calls.push({ tool: name, args, isError: reply.isError, sections: reply.sections, page: reply.page });
    return reply;
  };
}

// ref is the ref of the element with role and name in a snapshot.
export function ref(snapshot, role, name) {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const m = snapshot?.match(new RegExp(`- ${role} "${escaped}"[^\\n]*\\[ref=(\\w+)\\]`));
  if (!m)
    throw new Error(`no ${role} "${name}" in the snapshot:\n${snapshot}`);
  return m[1];
}
