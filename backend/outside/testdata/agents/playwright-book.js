// Books the room with Playwright over CDP (connectOverCDP), on the page Observatory opened,
// and exits 0 once the page says the reservation is saved. AGENT_CONNECT=ws connects to the
// browser's DevTools WebSocket (OBSERVATORY_WS_ENDPOINT) rather than its HTTP endpoint.
// AGENT_MODE=new-page books in a page it opens in the default context
// (browser.contexts()[0].newPage()); new-context in a context of its own (browser.newContext(),
// with its own proxy: on refusal it prints the error and exits 5).
import { chromium } from "playwright-core";

const ws = process.env.AGENT_CONNECT === "ws";
if (ws && !process.env.OBSERVATORY_WS_ENDPOINT?.startsWith("ws://")) throw new Error("no OBSERVATORY_WS_ENDPOINT: " + process.env.OBSERVATORY_WS_ENDPOINT);
const browser = await chromium.connectOverCDP(ws ? process.env.OBSERVATORY_WS_ENDPOINT : process.env.OBSERVATORY_CDP_URL);
let page = browser.contexts().flatMap((c) => c.pages()).find((p) => p.url().startsWith(process.env.OBSERVATORY_START_URL));
if (!page) throw new Error("no page at the start URL");
const mode = process.env.AGENT_MODE || "";
if (mode === "new-page") {
  page = await browser.contexts()[0].newPage();
  await page.goto(process.env.OBSERVATORY_START_URL);
}
if (mode === "new-context") {
  try {
    const context = await browser.newContext({ proxy: { server: "direct://" } });
    page = await context.newPage();
  } catch (err) {
    console.error("refused: " + err.message);
    process.exit(5);
  }
  await page.goto(process.env.OBSERVATORY_START_URL);
}
await page.getByRole("button", { name: "Reserve slot" }).click();
await page.getByRole("textbox", { name: "Reservation title" }).fill("Spectral scan");
await page.getByRole("combobox", { name: "Room" }).selectOption("north");
await page.getByRole("button", { name: "Save reservation" }).click();
await page.getByText("Reservation saved").waitFor({ timeout: 10000 });
console.log(JSON.stringify({ done: true }));
process.exit(0); // leaves the browser as it is: closing a CDP connection closes nothing
