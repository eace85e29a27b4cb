// A client written for Playwright MCP, with the MCP SDK: it calls only Playwright MCP's tool
// names and arguments and reads its replies' sections (### Page, ### Snapshot, ### Error).
// It books "Spectral scan" in room north on the booking app, after a click that fails (a
// selector naming the hidden status line), and recovers on the same page. It calls
// task_done, with its claim, only when the server offers it (Observatory does; Playwright MCP
// does not). It prints what it saw as JSON on standard output.
//
// MCP_SERVER is {command, args, env, cwd}: how to start the server over standard input and
// output. START_URL is where to begin; without it, the server's instructions must give it
// ("Start URL: ...").
import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const server = JSON.parse(process.env.MCP_SERVER);
const client = new Client({ name: 'playwright-mcp-style-agent', version: '1' });
await client.connect(new StdioClientTransport({ ...server, stderr: 'inherit' }), { timeout: 120000 });
const tools = (await client.listTools()).tools.map(t => t.name);
const instructions = client.getInstructions() ?? '';
const startURL = process.env.START_URL || (instructions.match(/Start URL: (\S+)/) ?? [])[1];
if (!startURL)
  throw new Error('no start URL: the server\'s instructions give none');

// sections splits a reply at its "### " headings.
function sections(text) {
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

const calls = [];
async function call(name, args = {}) {
  const r = await client.callTool({ name, arguments: args }, undefined, { timeout: 120000 });
  const text = r.content.filter(c => c.type === 'text').map(c => c.text).join('\n');
  const s = sections(text);
  const reply = { tool: name, isError: !!r.isError, sections: Object.keys(s), page: pageOf(s), snapshot: snapshotOf(s), text, structured: r.structuredContent };
  calls.push({ tool: name, args, isError: reply.isError, sections: reply.sections, page: reply.page });
  return reply;
}

function ref(snapshot, role, name) {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const m = snapshot?.match(new RegExp(`- ${role} "${escaped}"[^\\n]*\\[ref=(\\w+)\\]`));
  if (!m)
    throw new Error(`no ${role} "${name}" in the snapshot:\n${snapshot}`);
  return m[1];
}

const out = { tools, instructions, startURL, calls };
try {
  const nav = await call('browser_navigate', { url: startURL });
  out.navigated = nav.page;
  let snap = (await call('browser_snapshot')).snapshot;
  out.firstRef = ref(snap, 'button', 'Reserve slot');

  // A failed click: the status line is hidden until a save, so no click can reach it.
  const failed = await call('browser_click', { element: 'the status line', target: '#notice' });
  out.failed = { isError: failed.isError, error: failed.text.slice(0, 2000) };
  const after = await call('browser_snapshot');
  out.afterFailure = after.page;
  snap = after.snapshot;

  let r = await call('browser_click', { element: 'Reserve slot button', target: ref(snap, 'button', 'Reserve slot') });
  out.code = sections(r.text)['Ran Playwright code'];
  r = await call('browser_type', { element: 'Reservation title', target: ref(r.snapshot ?? (await call('browser_snapshot')).snapshot, 'textbox', 'Reservation title'), text: 'Spectral scan' });
  snap = r.snapshot ?? (await call('browser_snapshot')).snapshot;
  r = await call('browser_select_option', { element: 'Room', target: ref(snap, 'combobox', 'Room'), values: ['north'] });
  snap = r.snapshot ?? (await call('browser_snapshot')).snapshot;
  r = await call('browser_click', { element: 'Save reservation button', target: ref(snap, 'button', 'Save reservation') });
  out.saveError = r.isError ? r.text.slice(0, 2000) : undefined;
  r = await call('browser_wait_for', { text: 'Reservation saved', time: 10 });
  out.saved = !r.isError && /Reservation saved/.test(r.text);
  if (tools.includes('task_done')) {
    const done = await call('task_done', { claim: 'The page says Reservation saved.' });
    out.done = done.structured;
  }
} catch (e) {
  out.error = String(e.stack ?? e);
}
await client.close();
process.stdout.write(JSON.stringify(out));
