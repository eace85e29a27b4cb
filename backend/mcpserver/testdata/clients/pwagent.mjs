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
import { connect, caller, sections, ref } from './pwclient.mjs';

const client = await connect('playwright-mcp-style-agent');
const tools = (await client.listTools()).tools.map(t => t.name);
const instructions = client.getInstructions() ?? '';
const startURL = process.env.START_URL || (instructions.match(/Start URL: (\S+)/) ?? [])[1];
if (!startURL)
  throw new Error('no start URL: the server\'s instructions give none');

const calls = [];
const call = caller(client, calls);

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
