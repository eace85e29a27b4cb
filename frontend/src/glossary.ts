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
  unreadable:
    "An unreadable area is a large region of the page the accessibility snapshot cannot describe: a canvas, or a block of many elements with no role, name or text. An agent reading the page as text cannot see what it shows, and a click on it lands blind; the harness says so and suggests a text route (an accessible mode, the keyboard, a list view). Decorative backgrounds are left out.",
  transfer:
    "Files the step moved. An upload comes only from the task's uploads folder (a path with .. or a symlink leading out is refused); a download is saved in the downloads folder under a safe name (no folders, control characters or device names such as CON) and never over an existing file. Offered is the name asked for, saved the name it got.",
} as const;

/** A glossary term's key. */
export type Term = keyof typeof GLOSSARY;
