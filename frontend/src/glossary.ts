// The terms the UI explains in help popovers, in the user's words. Data only.

/** A term and what it means. */
export const GLOSSARY = {
  jaccard:
    "Role-set Jaccard distance: how much the set of (role, accessible name) pairs on the page changed across the step, from 0 (the same controls) to 1 (nothing in common). A click that opens a dialog is large; typing into a field is 0.",
  decision:
    "The harness's admission of the action. Its class says what it can do to the world: observe (reads only), prepare (fills, opens, selects; nothing leaves the page) or commit (submits, sends, pays: an effect outside the page). Then allow, hold or deny, and why. A commit is re-checked against a fresh look at the page just before it acts.",
  unconfirmed:
    "Could not confirm: the oracle could not answer at all (connection refused, a timeout, bad JSON, an SQL error). The condition is not done, but unlike “does not hold” nothing was learned about the app's state.",
  signal:
    "A signal is a cheaper check the task compares with the ground truth, such as a success notice or Parallax's check (the completion rule of Parallax, an earlier agent: done once an interactive step is followed by a status, an alert or a valid form). It is marked wrong wherever it disagrees with the ground truth.",
  gate: "The completion gate is done only when every one of its conditions holds, each read from authoritative state with its evidence.",
  blocked: "Requests the page tried to send to an origin outside the task's origins; the browser refused them.",
  driver:
    "The Playwright driver: Playwright's own program (it runs on Node.js) that Observatory talks to in order to drive the browser. It is installed once, into your user cache folder, from the npm registry.",
  playwrightChromium:
    "Playwright's Chromium: the Chromium build (Chrome for Testing) that goes with this Playwright driver, downloaded into Playwright's folder in your user cache (ms-playwright). Observatory uses it when no Google Chrome, Microsoft Edge or Chromium is installed.",
} as const;

/** A glossary term's key. */
export type Term = keyof typeof GLOSSARY;
