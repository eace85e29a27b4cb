// Pays for the checkout lab's notebook with Puppeteer, connected to the browser Observatory
// hands over: adds it to the cart, pays, and exits 0 once the page answers (an order notice or
// an alert: the gate decides whether it was the order asked for).
import puppeteer from "puppeteer-core";

const browser = await puppeteer.connect({ browserURL: process.env.OBSERVATORY_CDP_URL, defaultViewport: null });
const pages = await browser.pages();
const page = pages.find((p) => p.url().startsWith(process.env.OBSERVATORY_START_URL));
if (!page) throw new Error("no page at the start URL among " + pages.map((p) => p.url()));

await page.click("#add");
await page.waitForFunction(() => !document.querySelector("#pay").disabled, { timeout: 10000 });
await page.click("#pay");
await page.waitForFunction(() => !document.querySelector("#notice").hidden || !document.querySelector("#alert").hidden, { timeout: 20000 });
await browser.disconnect();
console.log(JSON.stringify({ done: true, answer: "paid" }));
