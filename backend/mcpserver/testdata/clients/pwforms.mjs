// A client written for Playwright MCP that fills the form patterns of real sites, each by a
// ref from the latest snapshot: labels that wrap their control, label for= and
// aria-labelledby, a select, a checkbox inside its label, a contenteditable, controls inside
// an open shadow root, forms inside a same-origin and a cross-origin iframe, and one
// "Delete" button among several, one per table row. It prints what it saw as JSON on
// standard output: each step's call, whether it failed and its reply's text.
//
// MCP_SERVER is {command, args, env, cwd}: how to start the server over standard input and
// output. START_URL is the page with the forms.
import { connect, caller } from './pwclient.mjs';

const client = await connect('playwright-mcp-forms-agent');
const calls = [];
const call = caller(client, calls);

// under is the lines of snapshot nested under the first line that matches container and
// whose nested lines match holding, when given.
function under(snapshot, container, holding) {
  const lines = snapshot.split('\n');
  for (const [at, line] of lines.entries()) {
    if (!container.test(line))
      continue;
    const indent = line.search(/\S/);
    const out = [];
    for (const l of lines.slice(at + 1)) {
      if (l.trim() !== '' && l.search(/\S/) <= indent)
        break;
      out.push(l);
    }
    if (!holding || holding.test(out.join('\n')))
      return out.join('\n');
  }
  throw new Error(`nothing matches ${container} ${holding ?? ''} in the snapshot:\n${snapshot}`);
}

// refIn is the ref of the first element with role (and name, when given; '' for none) in
// snapshot.
function refIn(snapshot, role, name) {
  const named = name === '' ? ' (?=\\[ref=)' : name === undefined ? '' : ` "${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"`;
  const m = snapshot.match(new RegExp(`- ${role}${named}[^\\n]*\\[ref=(\\w+)\\]`));
  if (!m)
    throw new Error(`no ${role} ${named} in:\n${snapshot}`);
  return m[1];
}

const out = { steps: [] };
let snap;
// step makes one call, notes it, and takes the page's snapshot afterwards for the next.
async function step(name, tool, args) {
  const r = await call(tool, args);
  out.steps.push({ name, tool, args, isError: r.isError, text: r.text.slice(0, 6000) });
  snap = (await call('browser_snapshot')).snapshot;
}

try {
  await call('browser_navigate', { url: process.env.START_URL });
  snap = (await call('browser_snapshot')).snapshot;
  out.snapshot = snap;
  const main = under(snap, /- main/);
  await step('fill the main form', 'browser_fill_form', { fields: [
    { name: 'Email', type: 'textbox', target: refIn(main, 'textbox', 'Email'), value: 'ada@example.com' },
    { name: 'City', type: 'textbox', target: refIn(main, 'textbox', 'City'), value: 'Lyon' },
    { name: 'Phone number', type: 'textbox', target: refIn(main, 'textbox', 'Phone number'), value: '555 0100' },
    { name: 'Send me news', type: 'checkbox', target: refIn(main, 'checkbox', 'Send me news'), value: 'true' },
  ] });
  await step('select a plan', 'browser_select_option', { element: 'Plan', target: refIn(under(snap, /- main/), 'combobox', 'Plan'), values: ['Pro'] });
  await step('click the terms checkbox', 'browser_click', { element: 'I accept the terms', target: refIn(under(snap, /- main/), 'checkbox', 'I accept the terms') });
  await step('type the notes', 'browser_type', { element: 'Notes', target: refIn(under(snap, /- main/), 'textbox', 'Notes'), text: 'Ring twice' });
  await step('answer the two questions', 'browser_fill_form', { fields: [
    { name: 'Smoke: No', type: 'radio', target: refIn(under(snap, /- group "Do you smoke\?"/), 'radio', 'No'), value: 'true' },
    { name: 'Drive: Yes', type: 'radio', target: refIn(under(snap, /- group "Do you drive\?"/), 'radio', 'Yes'), value: 'true' },
  ] });
  await step('type in the shadow search', 'browser_type', { element: 'Search', target: refIn(snap, 'textbox', 'Search'), text: 'lamps' });
  await step('click the shadow button', 'browser_click', { element: 'Search now', target: refIn(snap, 'button', 'Search now') });
  await step('delete Bob', 'browser_click', { element: 'Delete button of Bob', target: refIn(under(snap, /- row\s/, /- cell "Bob"/), 'button', 'Delete') });
  await step('add the chair to the cart', 'browser_click', { element: 'Add to cart of Chair', target: refIn(under(snap, /- listitem\s/, /- heading "Chair"/), 'button', 'Add to cart') });
  const shelf = snap.slice(snap.search(/- text: Shelf/)); // the Compare button after the Shelf card's text
  await step('compare the shelf', 'browser_click', { element: 'Compare of Shelf', target: refIn(shelf, 'button', 'Compare') });
  await step('fill the same-origin frame', 'browser_fill_form', { fields: [
    { name: 'news Email', type: 'textbox', target: refIn(under(snap, /- iframe/), 'textbox', 'Email'), value: 'news@example.com' },
  ] });
  await step('subscribe in the same-origin frame', 'browser_click', { element: 'Subscribe', target: refIn(snap, 'button', 'Subscribe') });
  // second is the lines under the page's second iframe (the cross-origin one).
  const second = () => {
    const lines = snap.split('\n');
    const frames = lines.map((l, i) => /- iframe/.test(l) ? i : -1).filter(i => i >= 0);
    return under(lines.slice(frames[1]).join('\n'), /- iframe/);
  };
  await step('type the coupon in the cross-origin frame', 'browser_type', { element: 'Coupon', target: refIn(second(), 'textbox', 'Coupon'), text: 'SPRING' });
  await step('type the unnamed ZIP in the cross-origin frame', 'browser_type', { element: 'ZIP', target: refIn(second(), 'textbox', ''), text: '69001' });
  await step('apply in the cross-origin frame', 'browser_click', { element: 'Apply', target: refIn(second(), 'button', 'Apply') });
  await step('like in the srcdoc frame', 'browser_click', { element: 'Like', target: refIn(snap, 'button', 'Like') });
  out.final = snap;
} catch (e) {
  out.error = String(e.stack ?? e);
}
await client.close();
process.stdout.write(JSON.stringify(out));
