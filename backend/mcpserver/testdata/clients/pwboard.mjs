// A client written for Playwright MCP, with the MCP SDK, on a board page (START_URL, whose
// /other is a second page): it drags the card onto the Done column, resizes the window, opens
// a second tab, selects the first again and closes the second, closes the browser and
// navigates again, and clears the card through the confirm dialog the click opens (trying a
// snapshot under the dialog first). It calls task_done, with its claim, only when the server offers
// it (Observatory does; Playwright MCP does not). It prints what it saw as JSON.
import { connect, caller, ref } from './pwclient.mjs';

const startURL = process.env.START_URL;
const client = await connect('playwright-mcp-style-board-agent');
const tools = (await client.listTools()).tools.map(t => t.name);
const calls = [];
const call = caller(client, calls);
const snapshot = async () => (await call('browser_snapshot')).snapshot ?? '';

const out = { calls };
try {
  await call('browser_navigate', { url: startURL });
  let snap = await snapshot();
  let r = await call('browser_drag', { startElement: 'Card', startTarget: ref(snap, 'button', 'Card'),
    endElement: 'Done column', endTarget: ref(snap, 'region', 'Done column') });
  out.dragged = !r.isError && /Card moved to Done/.test(await snapshot());
  r = await call('browser_resize', { width: 800, height: 600 });
  // The page hears the resize in its next frame: wait for what it then shows.
  out.resized = !r.isError && !(await call('browser_wait_for', { text: 'Window 800x600' })).isError && /Window 800x600/.test(await snapshot());

  r = await call('browser_tabs', { action: 'new', url: new URL('/other', startURL).href });
  out.opened = { isError: r.isError, page: r.page, tabs: (await call('browser_tabs', { action: 'list' })).text };
  r = await call('browser_tabs', { action: 'select', index: 0 });
  out.selected = { isError: r.isError, page: (await call('browser_snapshot')).page };
  r = await call('browser_tabs', { action: 'close', index: 1 });
  out.closedTab = { isError: r.isError, tabs: (await call('browser_tabs', { action: 'list' })).text };

  r = await call('browser_close');
  out.closed = !r.isError;
  r = await call('browser_navigate', { url: startURL });
  out.reopened = { isError: r.isError, page: r.page };
  snap = await snapshot();
  r = await call('browser_click', { element: 'Clear card', target: ref(snap, 'button', 'Clear card') });
  out.modal = r.section['Modal state'];
  r = await call('browser_snapshot');
  out.underModal = { isError: r.isError, error: (r.section['Error'] ?? '').split('\n')[0] };
  r = await call('browser_handle_dialog', { accept: true });
  out.accepted = !r.isError && /Card cleared/.test(await snapshot());

  if (tools.includes('task_done'))
    out.done = (await call('task_done', { claim: 'The page says Card cleared.' })).structured;
} catch (e) {
  out.error = String(e.stack ?? e);
}
await client.close();
process.stdout.write(JSON.stringify(out));
