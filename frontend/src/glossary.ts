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
    "The timeline puts the attempt's agent steps, the app's own events and the oracle's checks in the order they happened, each with the completion gate's state at that point (✓ done, ✗ not done, · not known: the app keeps no event log to replay). Choosing a point on it, in the steps list, in the replay or by playing the video chooses the same moment everywhere.",
  compare:
    "Two runs side by side, attempt by attempt: how each attempt ended, each verdict with its “wrong” mark, how many steps it took and how long. Highlighted cells differ between the runs; a duration differs only when one is more than 1.25 times the other and at least 100 ms longer, since timings always vary a little.",
  retention:
    "Retention keeps the history from growing without end: after each run, and when Observatory starts, runs past either limit (beyond the newest N, or added more than D days ago) are deleted with their videos and screenshots. An empty limit is off; both empty keep every run. A run still being written and the run open in the window are always kept. `observatory runs --prune` applies it from the command line.",
  blocked: "Requests the page tried to send to an origin outside the task's origins; the browser refused them.",
} as const;

/** A glossary term's key. */
export type Term = keyof typeof GLOSSARY;
