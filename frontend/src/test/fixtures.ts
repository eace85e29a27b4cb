// Hand-written data shaped like the Go JSON (backend/agent) for the booking lab: the plan, two
// attempts of five steps each ("saves-normally" and "notice-nothing-saved"), its task listing
// and a replay; and a second task whose labels are not the booking lab's, with a condition
// its oracle could not confirm. Tests only.
import type {
  Action,
  AppEvent,
  Attempt,
  Comparison,
  Condition,
  Config,
  Field,
  LedgerEntry,
  RateComparison,
  Replay,
  RoleName,
  Run,
  Sample,
  Step,
  Task,
  TaskInfo,
  Verdicts,
} from "../api/types";
/** The seed's configuration, as agent.DefaultConfig has it. */
export const config: Config = { wait: "condition", fixed_wait_ms: 200, poll_ms: 20, deadline_ms: 1500, selectors: "exact", budget: 8 };

export const plan: Action[] = [
  { id: "open-dialog", description: "Open reservation dialog", kind: "click", target: { role: "button", name: "Reserve slot", alias: "Book a slot" } },
  { id: "fill-title", description: "Fill task title", kind: "fill", target: { role: "textbox", name: "Reservation title" }, value: "Spectral scan" },
  { id: "choose-room", description: "Choose a room", kind: "select", target: { role: "combobox", name: "Room" }, value: "north" },
  { id: "submit", description: "Submit reservation form", kind: "submit", target: { role: "button", name: "Save reservation" } },
  { id: "verify", description: "Verify committed reservation", kind: "verify", target: {} },
];

const page: RoleName[] = [
  { role: "heading", name: "Lab reservations" },
  { role: "button", name: "Reserve slot" },
  { role: "table", name: "Reservations" },
];
const dialog: RoleName[] = [
  { role: "dialog", name: "New reservation" },
  { role: "textbox", name: "Reservation title" },
  { role: "combobox", name: "Room" },
  { role: "button", name: "Save reservation" },
  { role: "button", name: "Cancel" },
];
const noticePair: RoleName = { role: "status", name: "Reservation saved" };

function fields(title: string, room: string): Field[] {
  return [
    { role: "textbox", name: "Reservation title", value: title, invalid: title === "" },
    { role: "combobox", name: "Room", value: room },
  ];
}

/** A sample of the page at at_ms; the dialog's fields are present only while it is open. */
function sample(at: number, open: boolean, title = "", room = "", notice = "", rows: string[][] = []): Sample {
  return {
    at_ms: at,
    url: "http://127.0.0.1:40123/",
    dialog_open: open,
    fields: open ? fields(title, room) : [],
    notice,
    alert: "",
    rows,
    form_present: open,
    form_valid: open && title !== "",
    pairs: [...page, ...(open ? dialog : []), ...(notice ? [noticePair] : [])],
  };
}

function step(index: number, before: Sample, after: Sample, duration: number, distance: number, reason: string): Step {
  const action = plan[index];
  const cls = action.kind === "submit" ? "commit" : action.kind === "verify" ? "observe" : "prepare";
  return {
    index,
    action,
    decision: { class: cls, admission: "allow", reason },
    resolved: action.target.name,
    before,
    after,
    distance,
    start_ms: before.at_ms,
    duration_ms: duration,
  };
}

const saved = [["Spectral scan", "North lab", "Confirmed"]];

/** Five steps of an attempt; `committed` says whether the save wrote a record. */
function steps(committed: boolean): Step[] {
  const rows = committed ? saved : [];
  return [
    step(0, sample(0, false), sample(41, true), 41, 1 - 3 / 8, "opens a dialog; nothing leaves the page"),
    step(1, sample(41, true), sample(77, true, "Spectral scan"), 36, 0, "fills a field; nothing leaves the page"),
    step(2, sample(77, true, "Spectral scan"), sample(102, true, "Spectral scan", "north"), 25, 0, "selects an option; nothing leaves the page"),
    step(3, sample(102, true, "Spectral scan", "north"), sample(131, true, "Spectral scan", "north"), 29, 0, "submits the form: an external effect"),
    step(4, sample(131, true, "Spectral scan", "north"), sample(655, false, "", "", "Reservation saved", rows), 524, 1 - 3 / 9, "reads only"),
  ];
}

function cond(id: string, label: string, done: boolean, evidence: string): Condition {
  return { id, label, done, evidence };
}

function verdicts(committed: boolean): Verdicts {
  const conditions = [
    cond("record", "Committed record exists", committed, committed ? "1 committed record" : "the store holds no record"),
    cond("title", "Title matches the requested task", committed, committed ? 'title "Spectral scan"' : "no record to compare"),
    cond("room", "Room matches the requested task", committed, committed ? 'room "north"' : "no record to compare"),
    cond("save", "Save reached its completed state", committed, committed ? "save committed at 631 ms" : "save answered without committing"),
    cond("dialog", "Dialog is closed", true, "dialog closed at 640 ms"),
    cond("notice", "Success notice is present", true, 'status "Reservation saved"'),
  ];
  return {
    truth: { id: "truth", label: "saved as asked", done: committed, evidence: committed ? 'record "Spectral scan" in north' : "no committed record" },
    signals: [
      { id: "notice", label: "success notice", done: true, evidence: 'status notice "Reservation saved" shown' },
      { id: "parallax", label: "Parallax's check", done: true, evidence: 'after "Fill task title": form has no invalid field' },
    ],
    gate: { done: committed, conditions },
  };
}

function events(committed: boolean): AppEvent[] {
  const types = ["dialog-opened", "field-changed", "field-changed", "save-requested", committed ? "committed" : "save-answered", "notice-shown", "dialog-closed"];
  return types.map((type, i) => ({
    seq: i + 1,
    at_ms: [40, 76, 101, 130, 631, 638, 640][i],
    type,
    data: type === "field-changed" ? (i === 1 ? { field: "title", value: "Spectral scan" } : { field: "room", value: "north" }) : undefined,
  }));
}

export const bookingTask: Task = { name: "booking", intent: 'Reserve "Spectral scan" in room "north".', start_url: "/" };

function attempt(slug: string, title: string, committed: boolean): Attempt {
  return {
    attempt: slug,
    title,
    task: bookingTask,
    config,
    fault: committed ? "none" : "notice-no-commit",
    params: { latency_ms: 50 },
    plan,
    steps: steps(committed),
    events: events(committed),
    terminal: committed ? "completed" : "failed",
    reason: committed ? "the completion gate holds" : "a success notice appeared without a committed record",
    verdicts: verdicts(committed),
    started: "2025-11-30T05:00:00Z",
  };
}

export const savesNormally = attempt("saves-normally", "Saves normally", true);
export const noticeNothingSaved = attempt("notice-nothing-saved", "Notice shown, nothing saved", false);

export const lab: TaskInfo = {
  ref: "lab:booking",
  task: bookingTask,
  plan,
  attempts: [
    { slug: "saves-normally", title: "Saves normally", fault: "none", params: { latency_ms: 50 }, config },
    { slug: "notice-nothing-saved", title: "Notice shown, nothing saved", fault: "notice-no-commit", params: { latency_ms: 50 }, config },
    { slug: "save-refused", title: "Save refused", fault: "refused", params: { latency_ms: 50 }, config },
  ],
  columns: verdicts(false),
};

export const run: Run = {
  id: "run-1",
  task: "booking",
  created: "2025-11-30T05:00:00Z",
  status: "finished",
  source: "live",
  attempts: [savesNormally, noticeNothingSaved],
};

/** A replay of "notice-nothing-saved" from an imported file that claims the gate was done. */
export const replay: Replay = {
  frames: [null, ...events(false)].map((event, index) => ({
    index,
    event,
    state: {
      seq: index,
      dialog_open: index >= 1 && index < 7,
      title: index >= 2 ? "Spectral scan" : "",
      room: "north",
      phase: index >= 5 ? "completed" : index >= 4 ? "pending" : "idle",
      notice: index >= 6 ? "Reservation saved" : "",
      alert: "",
      records: [],
    },
    gate: verdicts(false).gate,
  })),
  recorded: { ...verdicts(false), gate: { ...verdicts(false).gate, done: true } },
  recomputed: verdicts(false),
  disagreements: [{ attempt: "notice-nothing-saved", verdict: "gate", recorded: "done", recomputed: "not done" }],
};

/** A task file's task: an issue tracker, whose signal and conditions are not the booking lab's. */
export const issueTask: Task = { name: "close-issue", intent: "Close issue #7.", start_url: "http://127.0.0.1:9000/issues/7", origins: ["http://127.0.0.1:9000"] };

const issueVerdicts: Verdicts = {
  truth: { id: "truth", label: "issue closed in the database", done: false, evidence: "could not confirm: connection refused", unconfirmed: "connection refused" },
  signals: [{ id: "saved-banner", label: "“Saved” banner", done: true, evidence: 'text "Saved" is present' }],
  gate: {
    done: false,
    conditions: [
      { id: "api-closed", label: "API says closed", done: false, evidence: "could not confirm: dial tcp 127.0.0.1:9000: connection refused", unconfirmed: "dial tcp 127.0.0.1:9000: connection refused" },
      { id: "page-closed", label: "Page shows Closed", done: true, evidence: 'text "Closed" is present' },
    ],
  },
};

const issuePlan: Action[] = [
  { id: "close", description: "Close the issue", kind: "click", target: { test_id: "close-issue" } },
  { id: "confirm", description: "Confirm with Enter", kind: "press", target: {}, value: "Enter" },
];

/** An attempt at the issue task whose oracle could not answer. */
export const issueAttempt: Attempt = {
  attempt: "api-down",
  title: "API down",
  task: issueTask,
  config,
  plan: issuePlan,
  steps: [
    {
      ...step(0, sample(0, false), sample(30, false, "", "", "Saved"), 30, 0.2, "clicks a control"),
      action: issuePlan[0],
      reason: "the close button is the only way to close it",
      blocked: ["https://tracker.example/analytics.js"],
    },
  ],
  events: null,
  answers: [
    { condition: "api-closed", kind: "http", error: "dial tcp 127.0.0.1:9000: connection refused" },
    { condition: "page-closed", kind: "page", raw: { text_present: "Closed", url: "http://127.0.0.1:9000/issues/7" } },
  ],
  terminal: "failed",
  reason: "the completion gate does not hold: API says closed could not be confirmed",
  verdicts: issueVerdicts,
  started: "2026-12-01T09:00:00Z",
};

export const issueTaskInfo: TaskInfo = {
  ref: "file:3fa9c0de",
  file: "close-issue.yaml",
  task: issueTask,
  plan: issuePlan,
  attempts: [{ slug: "api-down", title: "API down", config }],
  columns: issueVerdicts,
};

/** The action ledger of a checkout attempt whose payment was re-asked at a new price and denied. */
export const ledger: LedgerEntry[] = [
  { step: 1, intent: "Add the lab notebook to the cart", action: "click", target: "button[Add to cart] → Add to cart", principal: "alice",
    observed_ms: 120, fingerprint: "a1b2c3d4e5f60718", class: "prepare", risk: "", decision: "allow",
    reason: "prepare action within budget (0 of 8 used)", result: "done", verification: "" },
  { step: 2, intent: "Pay for the cart", action: "click", target: "button[Pay] → Pay", principal: "alice", observed_ms: 310,
    fingerprint: "0f1e2d3c4b5a6978", class: "commit", risk: "high", decision: "allow",
    reason: "high-risk commit: the page still matches the state it was planned on; it runs only once the user approves it",
    result: "not run: approval not given",
    verification: 'approval approve (as "alice", amount "20.00"): void before the commit: the amount changed from "20.00" to "25.00"; approval deny (as "alice", amount "25.00")' },
];

/** Run-1 against an imported run-2 where "saves-normally" failed and took a step fewer. */
export const comparison: Comparison = {
  a: { id: "run-1", task: "booking", created: "2025-11-30T05:00:00Z", status: "finished", source: "live" },
  b: { id: "run-2", task: "booking", created: "2025-11-30T06:00:00Z", status: "imported", source: "shared.json" },
  settings: [{ slug: "saves-normally", name: "params.latency_ms", a: "50", b: "900" }],
  checks: [
    { id: "truth", label: "saved as asked" },
    { id: "notice", label: "success notice" },
    { id: "gate", label: "completion gate" },
  ],
  rows: [
    {
      slug: "saves-normally",
      title: "Saves normally",
      a: { terminal: "completed", reason: "the completion gate holds", calls: [{ id: "truth", done: true }, { id: "notice", done: true }, { id: "gate", done: true }], wrong: 0, steps: 5, duration_ms: 655 },
      b: {
        terminal: "failed",
        reason: "a success notice appeared without a committed record",
        calls: [{ id: "truth", done: false }, { id: "notice", done: true, wrong: true }, { id: "gate", done: false }],
        wrong: 1,
        steps: 4,
        duration_ms: 640,
      },
      differs: ["terminal", "truth", "notice", "gate", "steps"],
    },
    {
      slug: "notice-nothing-saved",
      title: "Notice shown, nothing saved",
      a: { terminal: "failed", reason: "no record", calls: [{ id: "truth", done: false }, { id: "notice", done: true, wrong: true }, { id: "gate", done: false }], wrong: 1, steps: 5, duration_ms: 655 },
      b: { terminal: "failed", reason: "no record", calls: [{ id: "truth", done: false }, { id: "notice", done: true, wrong: true }, { id: "gate", done: false }], wrong: 1, steps: 5, duration_ms: 660 },
      differs: [],
    },
    {
      slug: "save-refused",
      title: "Save refused",
      a: null,
      b: { terminal: "rejected", reason: "the save was refused", calls: [{ id: "truth", done: false }, { id: "notice", done: false }, { id: "gate", done: false }], wrong: 0, steps: 5, duration_ms: 700 },
      differs: ["present"],
    },
  ],
  differing: 2,
};

/** Run 1 against run 2 as an A/B test: the renamed button completes only in B, 6 of 6 pairs. */
export const rates: RateComparison = {
  a: comparison.a,
  b: comparison.b,
  rows: [
    { attempt: "renamed-button-exact", a: { k: 0, n: 6 }, b: { k: 6, n: 6 }, difference: 1, interval: { lo: 0.448, hi: 1 }, test: "mcnemar", p: 0.03125, only_b: 6, significant: true, verdict: "B completes more often (p = 0.0312)" },
    { attempt: "saves-normally", a: { k: 6, n: 6 }, b: { k: 6, n: 6 }, difference: 0, interval: { lo: -0.39, hi: 0.39 }, test: "mcnemar", p: 1, significant: false, verdict: "no evidence of a difference (p = 1)" },
  ],
  overall: { attempt: "overall", a: { k: 6, n: 12 }, b: { k: 12, n: 12 }, difference: 0.5, interval: { lo: 0.18, hi: 0.71 }, test: "mcnemar", p: 0.03125, only_b: 6, significant: true, verdict: "B completes more often (p = 0.0312)" },
};
