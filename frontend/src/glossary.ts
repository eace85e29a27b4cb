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
  timeline:
    "The timeline is the attempt's filmstrip on a time axis: each agent step a cell with its screenshot's thumbnail, from its start to the next step's (its width grows with the time it took); under it, on a lane of their own, the app's own events (amber) and the final oracle check (green); under that the completion gate's state along the attempt (green done, grey not done yet, pale not known: the app keeps no event log to replay). Hover a step for its screenshot larger with its name; ←/→ step, ↓ goes to the events' lane and ↑ back. Choosing a point on it, in the steps list, in the replay or by playing the video chooses the same moment everywhere.",
  compare:
    "Two runs attempt by attempt, run A’s line over run B’s: how each attempt ended, each verdict with its “wrong” mark, how many steps it took and how long. Highlighted cells differ between the runs; a duration differs only when one is more than twice the other and at least 1 s longer, since timings vary by half again on a busy machine. An attempt only one run has reads “not in run A” or “not in run B”.",
  suite:
    "A suite run is many tasks run one after another, every attempt of each repeated as trials: each cell is one trial, ✓ when its completion gate proved the effect. A rate over few trials is uncertain, so each comes with its Wilson 95% interval: 2 of 2 is 34% to 100%, not a certainty. pass@k is the chance that at least one of k trials succeeds, pass^k that all k do; an attempt is flaky when its trials both completed and did not.",
  retention:
    "Retention keeps the history from growing without end: after each run, and when Observatory starts, runs past either limit (beyond the newest N, or added more than D days ago) are deleted with their videos and screenshots. An empty limit is off; both empty keep every run. A run still being written and the run open in the window are always kept. `observatory runs --prune` applies it from the command line.",
  live: "The live view: each running attempt's page as the browser paints it (its DevTools screencast), about ten frames a second, with the step it is on and the gate's state at its latest check. Watching never slows the attempt: frames a slow window cannot take are dropped.",
  endpoint:
    "A browser endpoint is where attempts get their browser: Chromium launched here, a Playwright browser server (--browser-ws) or a Chromium reached over the DevTools protocol (--cdp). Check connects to each, reads its version and closes again.",
  blocked: "Requests the page tried to send to an origin outside the task's origins; the browser refused them.",
  boxes:
    "The solid box marks the element the step acted on, where it was just before the action (so it shows on Before). When no element matched the target, dashed numbered boxes mark the page's nearest elements instead, best first: by name similarity, the target's role first on a tie. The Boxes button hides them and shows them again.",
  dom: "A DOM snapshot is the page's markup as it was when its screenshot was taken, kept when DOM snapshots are on in Settings (or run --dom-snapshots): the text, fields with their values, shadow roots and the page's own style sheets, with its scripts, event handlers and script links removed. It is shown in a frame that can run nothing and loads nothing, so images and fonts from elsewhere are missing; a page over 2 MiB keeps none. Pick (P) highlights the element under the pointer; a click on it gives its target in the task file's syntax, to copy into a step.",
  nearest:
    "The target matched no element on the page. These are the nearest ones, best first: by name similarity, from 0 (nothing shared) to 1 (the same name), the better of how few letters must change and how many words the names share; the target's role comes first on a tie. An element of another role is named only when its name is at least half alike.",
  network:
    "The HTTP requests this step sent: a request belongs to the step that sent it, even when its answer came during a later one (a save refused once the next step had begun), and what was sent between two steps (the first load, the planner thinking) to the next step. Credential headers, secret-looking parameters and typed secrets are masked (••••••). Bodies are kept only with the Request bodies setting (or run --bodies), at most 64 KiB each.",
  failedRequest:
    "A failed request either got no answer (the network or the browser gave up: net::ERR_…, or it was aborted or blocked) or was answered with a 4xx (the request was refused) or 5xx (the server broke) status.",
  console:
    "Messages the page wrote to its developer console during this step (console.log, warn, error, …), with where in its scripts they were written. The browser adds its own lines, such as “Failed to load resource” for a failed request.",
  pageError:
    "An uncaught exception: an error the page's scripts threw and nothing caught, with its stack. A page that throws may still look fine while its work is broken.",
  dropped:
    "A step keeps at most 100 requests, 100 console messages and 100 page errors, and an attempt 500 of each; what is past a limit is counted, not kept.",
  intendedSuccess:
    "Intended-state success: the share of attempts whose ground truth shows the state the user asked for, whatever the attempt itself claimed, of those whose ground truth made its call.",
  wrongTarget:
    "Wrong-target rate: the share of attempts that committed and wrote something, but not what was asked: the gate's first condition (the record or message exists) holds while a later one (its room, its recipient) does not. A second copy of the right record counts as a duplicate instead.",
  revalidation:
    "Revalidation stop rate: the share of attempts in which the harness held a commit because the page no longer matched the state it was planned on.",
  truthUnconfirmed:
    "Truth unconfirmed: attempts whose ground truth could not be confirmed (its oracle did not answer, or its evidence was cut short). Unknown is neither yes nor no: they are left out of intended-state success and the wrong-target rate, and no check is marked wrong against them.",
  burden:
    "Confirmation burden: approvals asked of the user per completed attempt. Lower is better, as long as nothing irreversible runs unasked.",
  recovery:
    "Recovery loops: the times an attempt went round again to recover: a look-up of an ambiguous commit in the app's store, a resend, or a repeated call the harness commented on.",
  leakage:
    "Side-effect leakage: read or explore steps (hover, wait, navigate) during which the app's data on the page changed: a mutation where only looking was meant.",
  duplicates:
    "Duplicate side effects: the extra records the app's store holds for one operation, as reconciliation found them.",
  denials:
    "Policy denials: actions a review held or denied, and approvals denied, not answered in time, or void because the details changed.",
  injection:
    "Injection stops: actions held because the page's own text tried to instruct the agent (page text never becomes intent or approval).",
  latency:
    "Latency per loop stage: the mean milliseconds a model took to plan a step, a step took to act, and a verify waited on the completion gate.",
  unreadable:
    "An unreadable area is a large region of the page the accessibility snapshot cannot describe: a canvas, or a block of many elements with no role, name or text. An agent reading the page as text cannot see what it shows, and a click on it lands blind; the harness says so and suggests a text route (an accessible mode, the keyboard, a list view). Decorative backgrounds are left out.",
  transfer:
    "Files the step moved. An upload comes only from the task's uploads folder (a path with .. or a symlink leading out is refused); a download is saved in the downloads folder under a safe name (no folders, control characters or device names such as CON) and never over an existing file. Offered is the name asked for, saved the name it got.",
  ledger:
    "The action ledger: one row per step, for an audit. What the action was for, the resource it targeted, the signed-in account (the principal) it was decided under, when the page was observed and that observation's fingerprint, what the harness decided and why, what came of it, and how it was verified (approvals, a look-up in the app's store, the completion gate). It is worked out from the recorded steps, so an imported run's ledger is recomputed, never read from the file.",
  fingerprint:
    "A fingerprint condenses what justified an action on the page: the address, the signed-in account, the target, the task's relevant text (a price, a recipient, an amount), the page's version, the dialog and the form. Before a commit the page is looked at again: a different account always stops it; a different price or version stops a high-risk one (paying, deleting); a banner or a clock never does.",
  driver:
    "The Playwright driver: Playwright's own program (it runs on Node.js) that Observatory talks to in order to drive the browser. It is installed once, into your user cache folder, from the npm registry.",
  playwrightChromium:
    "Playwright's Chromium: the Chromium build (Chrome for Testing) that goes with this Playwright driver, downloaded into Playwright's folder in your user cache (ms-playwright). Observatory uses it when no Google Chrome, Microsoft Edge or Chromium is installed.",
} as const;

/** A glossary term's key. */
export type Term = keyof typeof GLOSSARY;
