// Books the room with Stagehand 4, connected to the browser Observatory hands over
// (OBSERVATORY_CDP_URL): Stagehand loads its own extension there and acts through it. It
// exits 0 once the page says the reservation is saved (whether it was or not: the gate
// decides). Its two clicks are Stagehand's act(), which asks its model: the client-side hook
// (model.generate), here an OpenAI-compatible chat completions server at $OPENAI_BASE_URL.
import { localBrowser, Stagehand } from "@browserbasehq/stagehand";

// generate answers Stagehand's structured request with an OpenAI-compatible model.
async function generate(req) {
  const text = (m) => [m.content].flat().map((c) => c.text ?? "").join("");
  const res = await fetch(process.env.OPENAI_BASE_URL + "/chat/completions", {
    method: "POST",
    headers: { "content-type": "application/json", authorization: "Bearer " + (process.env.OPENAI_API_KEY ?? "") },
    body: JSON.stringify({
      model: "scripted",
      messages: [{ role: "system", content: req.systemPrompt ?? "" }, ...req.messages.map((m) => ({ role: m.role, content: text(m) }))],
      response_format: { type: "json_schema", json_schema: { name: req.responseFormat.name, schema: req.responseFormat.schema } },
    }),
  });
  if (!res.ok) throw new Error("the model answered " + res.status + ": " + (await res.text()));
  const answer = await res.json();
  const content = answer.choices[0].message.content;
  const usage = { inputTokens: answer.usage.prompt_tokens, outputTokens: answer.usage.completion_tokens, totalTokens: answer.usage.total_tokens };
  return { role: "assistant", content: { type: "text", text: content }, outputFormat: "json_schema", structuredContent: JSON.parse(content), usage };
}

const browser = await localBrowser.connect({ cdpUrl: process.env.OBSERVATORY_CDP_URL });
const stagehand = await Stagehand.create({
  browser,
  model: { generate },
});
const [page] = await browser.context.pages(); // the browser's first page: the attempt's
if (!(await page.url()).startsWith(process.env.OBSERVATORY_START_URL)) throw new Error("the first page is not at the start URL");
// The page loaded before Stagehand's extension was installed, so its content script is not in
// it yet: one reload puts it there.
await page.reload();
await stagehand.act("click the Reserve slot button");
await page.locator("#title").fill("Spectral scan");
await page.locator("#room").selectOption("north");
await stagehand.act("click the Save reservation button");
const deadline = Date.now() + 10000;
while (!(await page.evaluate(() => document.querySelector("#notice")?.textContent ?? "")).includes("Reservation saved")) {
  if (Date.now() > deadline) throw new Error("no notice that the reservation was saved");
  await new Promise((r) => setTimeout(r, 200));
}
await stagehand.close();
await browser.disconnect();
console.log(JSON.stringify({ done: true, answer: "Spectral scan in north" }));
