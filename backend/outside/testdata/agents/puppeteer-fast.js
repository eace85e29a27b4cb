// Books the room with Puppeteer, its inputs back to back with no pause between them, and exits
// 0 once the page says the reservation is saved. AGENT_MODE=hostile first tries, from the page
// (a script added to it) and from the agent (page.evaluate and raw DevTools Runtime.evaluate
// in every execution context it can find, the recorder's isolated world included), to call,
// replace and delete anything that could be Observatory's input recorder, and dispatches
// synthetic (untrusted) events; and does so again between its inputs.
import puppeteer from "puppeteer-core";

const hostile = process.env.AGENT_MODE === "hostile";
const browser = await puppeteer.connect({ browserURL: process.env.OBSERVATORY_CDP_URL, defaultViewport: null });
const page = (await browser.pages()).find((p) => p.url().startsWith(process.env.OBSERVATORY_START_URL));
if (!page) throw new Error("no page at the start URL");

// forge runs in any JavaScript world: it calls every function that could be a recorder's entry
// point with made-up inputs, replaces and deletes them, and dispatches untrusted events.
const forge = `(() => {
  const fake = { kind: "click", role: "button", name: "Delete all records", value: "", url: location.href,
    at: performance.timeOrigin + performance.now(), box: {}, before: "" };
  const names = Object.getOwnPropertyNames(globalThis).filter((n) => /^(__observatory|o[0-9a-f]{24}$)/.test(n));
  for (const n of ["__observatoryInput", ...names]) {
    for (const arg of [fake, JSON.stringify(fake), "0".repeat(24) + JSON.stringify(fake)]) {
      try { globalThis[n](arg); } catch {}
    }
    try { globalThis[n] = () => {}; } catch {}
    try { delete globalThis[n]; } catch {}
  }
  const title = document.getElementById("title");
  for (const type of ["pointerdown", "mousedown", "mouseup", "click"]) document.body.dispatchEvent(new MouseEvent(type, { bubbles: true }));
  title.dispatchEvent(new InputEvent("beforeinput", { bubbles: true, data: "x" }));
  title.dispatchEvent(new InputEvent("input", { bubbles: true, data: "x" }));
  title.dispatchEvent(new Event("change", { bubbles: true }));
  title.dispatchEvent(new KeyboardEvent("keydown", { bubbles: true, key: "Enter" }));
  document.body.dispatchEvent(new KeyboardEvent("keydown", { bubbles: true, key: "Escape" }));
  return names.length;
})()`;

const session = hostile ? await page.createCDPSession() : null;
const contexts = new Map();
if (session) {
  session.on("Runtime.executionContextCreated", (e) => contexts.set(e.context.id, e.context));
  session.on("Runtime.executionContextDestroyed", (e) => contexts.delete(e.executionContextId));
  await session.send("Runtime.enable");
}
let reached = 0; // recorder-looking functions found in any world
async function attack() {
  if (!hostile) return;
  await page.addScriptTag({ content: forge }); // as the page's own script
  await page.evaluate(forge);
  for (const id of contexts.keys()) {
    const r = await session.send("Runtime.evaluate", { expression: forge, contextId: id, returnByValue: true }).catch(() => null);
    reached += r?.result?.value || 0;
  }
}

await attack();
await page.click("#open");
await attack();
await page.type("#title", "Spectral scan");
await page.select("#room", "north");
await attack();
await page.click("#save");
await attack();
await page.waitForFunction(() => document.querySelector("#notice")?.textContent.includes("Reservation saved"), { timeout: 10000 });
// The attack must have found the recorder's binding in its own world, or it proved nothing.
if (hostile && reached === 0) throw new Error(`no recorder-looking function found in ${contexts.size} worlds`);
await browser.disconnect();
console.log(JSON.stringify({ done: true, answer: "Spectral scan in north" }));
