// Books the room with Stagehand 4, connected to the browser Observatory hands over
// (OBSERVATORY_CDP_URL): Stagehand loads its own extension there and acts through it. It
// exits 0 once the page says the reservation is saved (whether it was or not: the gate
// decides). Its model is the client-side hook (model.generate); these actions are locators,
// so it is never called, and says so if it is.
import { localBrowser, Stagehand } from "@browserbasehq/stagehand";

const browser = await localBrowser.connect({ cdpUrl: process.env.OBSERVATORY_CDP_URL });
const stagehand = await Stagehand.create({
  browser,
  model: {
    generate: async () => {
      throw new Error("this agent acts by locators: no model call is expected");
    },
  },
});
const [page] = await browser.context.pages(); // the browser's first page: the attempt's
if (!(await page.url()).startsWith(process.env.OBSERVATORY_START_URL)) throw new Error("the first page is not at the start URL");
// The page loaded before Stagehand's extension was installed, so its content script is not in
// it yet: one reload puts it there.
await page.reload();
await page.locator("#open").click();
await page.locator("#title").fill("Spectral scan");
await page.locator("#room").selectOption("north");
await page.locator("#save").click();
const deadline = Date.now() + 10000;
while (!(await page.evaluate(() => document.querySelector("#notice")?.textContent ?? "")).includes("Reservation saved")) {
  if (Date.now() > deadline) throw new Error("no notice that the reservation was saved");
  await new Promise((r) => setTimeout(r, 200));
}
await stagehand.close();
await browser.disconnect();
console.log(JSON.stringify({ done: true, answer: "Spectral scan in north" }));
