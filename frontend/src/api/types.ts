// TypeScript mirrors of the Go JSON types in backend/agent (snake_case tags) and of the app
// services' request and result types described in docs/api.md. Go nil slices arrive as null,
// so every slice without omitempty is typed `T[] | null`.

/** How an attempt ended (agent.Terminal). */
export type Terminal = "completed" | "failed" | "rejected" | "exhausted" | "cancelled" | "ambiguous";

/** Where a run stands (agent.RunStatus). */
export type RunStatus = "running" | "finished" | "cancelled" | "interrupted" | "imported";

/** The user's intent (agent.Task). */
export interface Task {
  title: string;
  room: string;
}

/** What an action does to the page (agent.ActionKind). */
export type ActionKind = "click" | "fill" | "select" | "submit" | "verify";

/** A control named by ARIA role and accessible name (agent.Target). */
export interface Target {
  role: string;
  name: string;
  alias?: string;
}

/** One planned step (agent.Action). */
export interface Action {
  id: string;
  description: string;
  kind: ActionKind;
  target: Target;
  value?: string;
}

/** How the executor waits (agent.WaitMode). */
export type WaitMode = "fixed" | "condition";

/** How targets are located (agent.SelectorMode). */
export type SelectorMode = "exact" | "alias";

/** The numbers and policies one attempt runs with (agent.Config); durations in ms. */
export interface Config {
  wait: WaitMode;
  fixed_wait_ms: number;
  poll_ms: number;
  deadline_ms: number;
  selectors: SelectorMode;
  budget: number;
  latency_ms: number;
}

/** Config fields that override every attempt's own; an absent field keeps the attempt's (agent.ConfigOverride). */
export type ConfigOverride = Partial<Config>;

/** One lab app event (agent.Event). */
export interface AppEvent {
  seq: number;
  at_ms: number;
  type: string;
  data?: Record<string, string>;
}

/** One yes/no call with its evidence (agent.Verdict). */
export interface Verdict {
  done: boolean;
  evidence: string;
}

/** One named completion condition (agent.Condition). */
export interface Condition extends Verdict {
  id: string;
  label: string;
}

/** The completion gate's result (agent.Gate). */
export interface Gate {
  done: boolean;
  conditions: Condition[] | null;
}

/** The four ways of deciding whether an attempt worked (agent.Verdicts). */
export interface Verdicts {
  saved_as_asked: Verdict;
  notice: Verdict;
  parallax: Verdict;
  gate: Gate;
}

/** What policy decided about an action (agent.Decision). */
export interface Decision {
  class: "observe" | "prepare" | "commit";
  admission: "allow" | "hold" | "deny";
  reason: string;
  fingerprint?: string;
}

/** One (role, accessible name) pair (agent.RoleName). */
export interface RoleName {
  role: string;
  name: string;
}

/** One observed form control (agent.Field). */
export interface Field {
  role: string;
  name: string;
  value: string;
  invalid?: boolean;
}

/** What the page showed at one moment (agent.Sample). */
export interface Sample {
  at_ms: number;
  url: string;
  dialog_open: boolean;
  fields: Field[] | null;
  notice: string;
  alert: string;
  rows: string[][] | null;
  form_present: boolean;
  form_valid: boolean;
  pairs: RoleName[] | null;
  screenshot?: string;
}

/** One executed action and everything recorded about it (agent.Step). */
export interface Step {
  index: number;
  action: Action;
  decision: Decision;
  resolved?: string;
  before: Sample;
  after: Sample;
  distance: number;
  start_ms: number;
  duration_ms: number;
  error?: string;
}

/** One run of a plan against a lab (agent.Attempt). The slug is under "attempt". */
export interface Attempt {
  attempt: string;
  title: string;
  task: Task;
  config: Config;
  plan: Action[] | null;
  steps: Step[] | null;
  events: AppEvent[] | null;
  terminal: Terminal;
  reason: string;
  verdicts: Verdicts;
  started: string;
  video?: string;
  /** The Playwright trace (a zip for `npx playwright show-trace`), when one was recorded. */
  trace?: string;
}

/** One batch of attempts against one lab (agent.Run). */
export interface Run {
  id: string;
  lab: string;
  created: string;
  status: RunStatus;
  source: string;
  attempts: Attempt[] | null;
}

/** One scripted attempt a lab offers (agent.AttemptSpec). */
export interface AttemptSpec {
  slug: string;
  title: string;
  fault: string;
  config: Config;
}

/** A lab as Runs.Labs lists it. */
export interface LabInfo {
  name: string;
  task: Task;
  plan: Action[] | null;
  attempts: AttemptSpec[] | null;
}

/** The oracle's answer at one moment (agent.Check). */
export interface Check {
  gate: Gate;
  settled?: Terminal;
  settled_reason?: string;
}

/** The argument of Runs.Start. */
export interface StartRequest {
  lab: string;
  attempts: string[];
  config: ConfigOverride | null;
}

/** One row of Runs.History. */
export interface RunSummary {
  id: string;
  lab: string;
  created: string;
  status: RunStatus;
  source: string;
  attempts: number;
  completed: number;
  wrong: number;
}

/** The columns of the attempts table that a disagreement can be about. */
export type VerdictKey = "saved_as_asked" | "notice" | "parallax" | "gate" | "terminal";

/** A verdict the run file recorded that replay recomputed differently. */
export interface Disagreement {
  attempt: string;
  /** A VerdictKey, or "task" when the file's task is not the lab's. */
  verdict: VerdictKey | "task";
  recorded: string;
  recomputed: string;
}

/** One rebuilt replay frame; event is null for the initial state. */
export interface Frame {
  index: number;
  event: AppEvent | null;
  state: Record<string, unknown> | null;
  gate: Gate;
}

/** The result of Runs.Replay. */
export interface Replay {
  frames: Frame[] | null;
  recorded: Verdicts;
  recomputed: Verdicts;
  disagreements: Disagreement[] | null;
}

/** The result of an upload and of Files.ImportDialog; run_id is "" when the user cancelled. */
export interface ImportResult {
  run_id: string;
  disagreements: Disagreement[] | null;
}

/** The user's settings (Settings.Get / Settings.Save); config holds only the forced fields. */
export interface Settings {
  config: ConfigOverride;
  headed: boolean;
  browser_path: string;
  video: boolean;
  screenshots: boolean;
  /** Record a Playwright trace of each attempt. */
  trace: boolean;
}

/** What a `run` event reports. */
export type ProgressKind =
  | "run-started"
  | "attempt-started"
  | "step"
  | "check"
  | "frame"
  | "attempt-finished"
  | "run-finished"
  | "error";

/** The payload of the `run` event (runner.Progress). */
export interface Progress {
  run_id: string;
  kind: ProgressKind;
  slug?: string;
  /** The attempt's place in the batch, 1-based, and the batch's size. */
  index?: number;
  total?: number;
  step?: Step;
  check?: Check;
  /** App events new since the last progress event. */
  events?: AppEvent[];
  attempt?: Attempt;
  /** The newest screenshot's path, relative to the run's media folder. */
  frame?: string;
  status?: RunStatus;
  message?: string;
}

/** What Session.Ready answers: where the UI runs. */
export interface SessionInfo {
  version: string;
  transport: string;
  data_dir: string;
}
