// TypeScript mirrors of the Go JSON types in backend/agent (snake_case tags) and of the app
// services' request and result types described in docs/api.md. Go nil slices arrive as null,
// so every slice without omitempty is typed `T[] | null`.

/** How an attempt ended (agent.Terminal). */
export type Terminal = "completed" | "failed" | "rejected" | "exhausted" | "cancelled" | "ambiguous";

/** Where a run stands (agent.RunStatus). */
export type RunStatus = "running" | "finished" | "cancelled" | "interrupted" | "imported";

/** What the user asked for, as data (agent.Task). */
export interface Task {
  name: string;
  /** The user's request, word for word. */
  intent: string;
  start_url: string;
  /** The origins an attempt may load; absent allows only the start URL's. */
  origins?: string[];
}

/** What an action does to the page (agent.ActionKind). */
export type ActionKind =
  | "click"
  | "fill"
  | "select"
  | "check"
  | "uncheck"
  | "press"
  | "hover"
  | "navigate"
  | "wait_for"
  | "submit"
  | "verify";

/**
 * One element (agent.Target): exactly one locator is set, role (with an exact accessible
 * name, or none), label, placeholder, test_id, text or css; none for actions without a target.
 */
export interface Target {
  role?: string;
  name?: string;
  label?: string;
  placeholder?: string;
  test_id?: string;
  text?: string;
  css?: string;
  /** The one declared alternate for the locator's text. */
  alias?: string;
  /** The iframes the element is in, outermost first (agent.FrameRef). */
  frame?: { title?: string; name?: string; css?: string }[];
  /** The container the element is in (agent.Container): a role with text its name contains, a test id or CSS. */
  within?: { role?: string; name?: string; test_id?: string; css?: string };
}

/** One planned step (agent.Action). */
export interface Action {
  id: string;
  description: string;
  kind: ActionKind;
  target: Target;
  value?: string;
  /** The value is a secret: recorded masked. */
  secret?: boolean;
  /** Skipped, not failed, when its target matches nothing (a step both optional and unresolved). */
  optional?: boolean;
  /** A step of the session's setup (signing in), not of the task: Parallax leaves it out. */
  setup?: boolean;
}

/** How the executor waits (agent.WaitMode). */
export type WaitMode = "fixed" | "condition";

/** How targets are located (agent.SelectorMode). */
export type SelectorMode = "exact" | "alias";

/** A reviewer's rule: a CEL expression that flags an action, and why (agent.ReviewRule). */
export interface ReviewRule {
  expr: string;
  reason: string;
}

/** The review irreversible actions get (agent.ReviewSpec). */
export interface ReviewSpec {
  policy: string;
  reviewer: string;
  rules?: ReviewRule[];
  on_unavailable?: string;
}

/** The review and approval irreversible actions get (agent.Safeguards). */
export interface Safeguards {
  review?: ReviewSpec;
  /** Irreversible actions wait for the user's approval, for limit_ms (agent.ApprovalSpec). */
  approval?: { limit_ms: number };
}

/** The numbers and policies one attempt runs with (agent.Config); durations in ms. */
export interface Config {
  wait: WaitMode;
  fixed_wait_ms: number;
  poll_ms: number;
  deadline_ms: number;
  selectors: SelectorMode;
  budget: number;
  /** How many times a commit whose outcome the app left ambiguous may be tried again. */
  retries?: number;
  safeguards?: Safeguards;
}

/** Config fields that override every attempt's own; an absent field keeps the attempt's (agent.ConfigOverride). */
export type ConfigOverride = Partial<Pick<Config, "wait" | "fixed_wait_ms" | "poll_ms" | "deadline_ms" | "selectors" | "budget">>;

/** One lab app event (agent.Event). */
export interface AppEvent {
  seq: number;
  at_ms: number;
  type: string;
  data?: Record<string, string>;
}

/**
 * One yes/no call with its evidence (agent.Verdict). unconfirmed, when set, says why the
 * oracle could not answer at all: the call is "could not confirm", never done.
 */
export interface Verdict {
  done: boolean;
  evidence: string;
  unconfirmed?: string;
}

/** One named completion condition (agent.Condition). */
export interface Condition extends Verdict {
  id: string;
  label: string;
}

/** One named verdict beside the gate: the ground truth or a weaker check (agent.Signal). */
export interface Signal extends Verdict {
  id: string;
  label: string;
}

/** The completion gate's result (agent.Gate). */
export interface Gate {
  done: boolean;
  conditions: Condition[] | null;
}

/** Every way of deciding whether an attempt worked: ground truth, the task's signals, the gate (agent.Verdicts). */
export interface Verdicts {
  truth: Signal;
  signals: Signal[] | null;
  gate: Gate;
}

/** What one oracle condition read from authoritative state at the final check (agent.Answer). */
export interface Answer {
  /** The id of the condition or signal that asked. */
  condition: string;
  kind: string;
  /** The raw answer as JSON; absent when error is set. */
  raw?: unknown;
  /** Why the oracle could not answer. */
  error?: string;
}

/** What an action can do to the world (agent.ActionClass). */
export type ActionClass = "observe" | "prepare" | "commit" | "explore" | "destruct";

/** What an action promises about its effect (agent.Contract). */
export type Contract = "read" | "navigate" | "mutate" | "irreversible" | "control";

/** A reviewer's judgement of an irreversible action (agent.Review). */
export interface Review {
  reviewer: string;
  verdict: "clear" | "caution" | "unavailable";
  reason: string;
  /** A model reviewer's usage and cost, of every review of the step. */
  in_tokens?: number;
  out_tokens?: number;
  cost_usd?: number;
  /** A re-check kept the review given before it; it was paid for once. */
  kept?: boolean;
}

/** What policy decided about an action (agent.Decision). */
export interface Decision {
  class: ActionClass;
  admission: "allow" | "hold" | "deny";
  reason: string;
  fingerprint?: string;
  contract?: Contract;
  /** What decided the contract (the tool, or the word in the control's name). */
  why?: string;
  /** Identifies the call (tool, arguments, page); repeats are counted by it. */
  key?: string;
  /** A hold that does not end the attempt. */
  continue?: boolean;
  review?: Review;
  /** The action may run only once the user approves it. */
  ask_user?: boolean;
  /** The fingerprint of the observation the decision was taken on (agent.Fingerprint). */
  observed?: Fingerprint;
  /** How much a commit stakes on the page being unchanged. */
  risk?: "low" | "high";
}

/** What one observation says about the state an action is justified by (agent.Fingerprint). */
export interface Fingerprint {
  route: string;
  principal?: string;
  target?: string;
  relevant?: string;
  version?: string;
  dialog?: boolean;
  form: string;
  at_ms: number;
  hash: string;
}

/** One row of an attempt's action ledger (ledger.Entry): one step. */
export interface LedgerEntry {
  step: number;
  intent: string;
  action: string;
  target: string;
  principal: string;
  observed_ms: number;
  fingerprint: string;
  class: string;
  risk: string;
  decision: string;
  reason: string;
  result: string;
  verification: string;
}

/** One approval request and its answer (agent.Approval). */
export interface Approval {
  request: ApprovalRequest;
  answer: "approve" | "deny" | "none";
  note?: string;
  asked_ms: number;
  answered_ms: number;
  /** The details changed between the approval and the commit, so it was not used. */
  void?: boolean;
  /** For an approved request, the hash of the details observed just before the commit. */
  commit_hash?: string;
}

/** The look-up that settled an ambiguous commit (agent.Reconciliation). */
export interface Reconciliation {
  op_id: string;
  query: string;
  answer: string;
  found: number;
  outcome: "completed" | "retry" | "failed" | "duplicate";
  retry?: Action;
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

/** A width and a height in pixels: CSS pixels for a viewport, image pixels for a screenshot (agent.Size). */
export interface Size {
  width: number;
  height: number;
}

/** What the page showed at one moment (agent.Sample). */
export interface Sample {
  /** Numbers the attempt's observations from 1; absent in older records. */
  seq?: number;
  at_ms: number;
  url: string;
  title?: string;
  dialog_open: boolean;
  fields: Field[] | null;
  notice: string;
  alert: string;
  rows: string[][] | null;
  form_present: boolean;
  form_valid: boolean;
  pairs: RoleName[] | null;
  /** The page's visible text, bounded. */
  text?: string;
  /** Large regions the accessibility snapshot cannot describe; decorative ones left out. */
  unreadable?: Region[];
  /** The signed-in account, the relevant text and the version, where the task's authority reads them. */
  principal?: string;
  facts?: Fact[] | null;
  version?: string;
  /** The page's viewport in CSS pixels as the sample was read; absent in older records. */
  viewport?: Size;
  screenshot?: string;
  /** The screenshot's size in image pixels; absent when none was taken, and in older records. */
  screenshot_size?: Size;
  /** The element with the keyboard focus, which a key pressed without a target goes to. */
  focus?: Focus;
}

/** The focused element, and whether Enter in it submits its form through which button (agent.Focus). */
export interface Focus {
  role: string;
  name: string;
  submits?: boolean;
  submitter?: string;
}

/** One task-declared relevant text as observed (agent.Fact). */
export interface Fact {
  id: string;
  value: string;
}

/** An area of the page, in CSS pixels of the viewport, that cannot be read as text (agent.Region). */
export interface Region {
  kind: "canvas" | "unlabelled";
  /** The element, such as "canvas#board". */
  what: string;
  x: number;
  y: number;
  w: number;
  h: number;
}

/** A file a step uploaded from the uploads folder or saved in the downloads folder (agent.Transfer). */
export interface Transfer {
  kind: "upload" | "download";
  /** The name as asked for: the plan's path, or the page's suggested name (possibly hostile). */
  offered: string;
  /** The name it has in its folder. */
  saved: string;
  bytes: number;
}

/** One tool call a model made and what the planner did with it (agent.ModelCall). */
export interface ModelCall {
  id: string;
  name: string;
  /** The arguments as the model sent them (JSON text, possibly invalid). */
  arguments: string;
  outcome: "proposed" | "answered" | "rejected" | "refused";
  /** What went back to the model for a call answered, rejected or refused by the planner. */
  result?: string;
}

/** Older turns summarised to keep the conversation under its token budget (agent.Compaction). */
export interface Compaction {
  messages: number;
  summary: string;
  tokens_before: number;
  tokens_after: number;
}

/** One exchange with a model planner (agent.ModelTurn). */
export interface ModelTurn {
  /** The index of the step this turn was planning. */
  step: number;
  /** "provider:model" ("openai:gpt-4.1-mini"). */
  model: string;
  /** The request: messages sent and their estimated tokens. */
  messages: number;
  tokens: number;
  /** The seq and at_ms of the observation the request showed the model. */
  grounded_seq?: number;
  grounded_at_ms: number;
  /** What the model wrote besides its tool calls. */
  text?: string;
  calls?: ModelCall[];
  in_tokens: number;
  out_tokens: number;
  latency_ms: number;
  /** 0 when no prices are configured. */
  cost_usd: number;
  retries?: number;
  notes?: string[];
  compaction?: Compaction;
  /** Why planning ended at this turn without an answer. */
  error?: string;
}

/** Where an element was: its bounding box in CSS pixels of the page's viewport, and the viewport's size (agent.Box). */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
  viewport_width: number;
  viewport_height: number;
}

/** An element near a target that matched nothing (agent.Candidate). */
export interface Candidate {
  role: string;
  name: string;
  /** How alike its name is to the target's, 0 to 1. */
  similarity: number;
  box: Box;
}

/** One executed action and everything recorded about it (agent.Step). */
export interface Step {
  index: number;
  action: Action;
  /** The planner's stated reason for the action. */
  reason?: string;
  /** A model planner's turns that led to the action. */
  model_turns?: ModelTurn[];
  /** The target matched no element or several, so nothing ran; a model was told and named another. */
  unresolved?: boolean;
  /** "observed" for an action an outside agent process took on its own: no proposal or decision. */
  provenance?: "observed";
  decision: Decision;
  /** What the harness tells the planner when a call repeats or the page cannot be read. */
  guidance?: string;
  /** Approval requests made immediately before the action, each with its answer. */
  approvals?: Approval[];
  reconciliation?: Reconciliation;
  resolved?: string;
  before: Sample;
  after: Sample;
  distance: number;
  start_ms: number;
  duration_ms: number;
  /** Requests refused because their origin is not the task's. */
  blocked?: string[];
  /** The HTTP requests that ended during the step. */
  requests?: NetRequest[];
  /** The console messages written during the step. */
  console?: ConsoleMessage[];
  /** The uncaught exceptions thrown during the step. */
  page_errors?: PageError[];
  /** What the recording limits left out of the step. */
  dropped?: Dropped;
  /** Files the step uploaded or saved. */
  transfers?: Transfer[];
  error?: string;
  /** Where the acted-on element was, measured just before the action. */
  target_box?: Box;
  /** The elements nearest a target that matched nothing, best first. */
  candidates?: Candidate[];
}

/**
 * A step without its observations (agent.StepSummary): what the step list, the timeline and
 * the filmstrip show of every step. Runs.Header lists a short attempt's steps this way, and
 * Runs.Summaries a long one's; the steps looked at are read whole with Runs.Steps.
 */
export interface StepSummary {
  index: number;
  /** The action's description and kind; its target in words (agent.Target.String) and value, masked when secret. */
  description: string;
  kind: ActionKind;
  target?: string;
  value?: string;
  class: ActionClass;
  admission: Decision["admission"];
  start_ms: number;
  duration_ms: number;
  /** The step ended in an error. */
  failed?: boolean;
  /** The screenshot that stands for the step: the one after it, else the one before. */
  shot?: string;
  /** How many model turns led to the action. */
  turns?: number;
  /** A model's done call became the action: it claimed the task complete. */
  said_done?: boolean;
}

/** One HTTP header; a credential's value is masked (agent.Header). */
export interface Header {
  name: string;
  value: string;
}

/** A request's or response's body, recorded only when bodies are on (agent.Body). */
export interface Body {
  mime_type?: string;
  text: string;
  /** The text is only the start of the body. */
  truncated?: boolean;
}

/** One HTTP request the page made, with its response or why it had none (agent.Request). */
export interface NetRequest {
  method: string;
  url: string;
  resource_type: string;
  /** The response's HTTP status; absent when there was no response. */
  status?: number;
  status_text?: string;
  /** Milliseconds since the attempt started. */
  start_ms: number;
  duration_ms: number;
  /** The response body's bytes over the network; -1 unknown. */
  size: number;
  /** Why the request failed in the network (net::ERR_...). */
  failure?: string;
  request_headers?: Header[];
  response_headers?: Header[];
  request_body?: Body;
  response_body?: Body;
}

/** One request of an attempt with the step during which it ended (app.AttemptRequest). */
export interface AttemptRequest extends NetRequest {
  /** The step's position in the attempt, from 0. */
  step: number;
}

/** Every request of an attempt, and how many the steps' limits left out (app.AttemptRequests). */
export interface AttemptRequests {
  requests: AttemptRequest[];
  dropped?: number;
}

/** One message the page wrote to its console (agent.ConsoleMessage). */
export interface ConsoleMessage {
  level: string;
  text: string;
  /** URL:line:column where it was written. */
  location?: string;
  at_ms: number;
}

/** An exception the page's scripts threw and nothing caught (agent.PageError). */
export interface PageError {
  message: string;
  stack?: string;
  at_ms: number;
}

/** How many items a step left out because a recording limit was reached (agent.Dropped). */
export interface Dropped {
  requests?: number;
  console?: number;
  errors?: number;
}

/** One run of a plan against a lab (agent.Attempt). The slug is under "attempt". */
export interface Attempt {
  attempt: string;
  title: string;
  task: Task;
  config: Config;
  /** The app's fault mode; absent for none. */
  fault?: string;
  /** The app's own knobs for this attempt (a lab's latency_ms). */
  params?: Record<string, number>;
  plan: Action[] | null;
  steps: Step[] | null;
  /** A model planner's turns that led to no step: the planning that ended the attempt (a limit, a budget). */
  model_turns?: ModelTurn[];
  events: AppEvent[] | null;
  /** The oracle's raw answers, the evidence each condition was judged from. */
  answers?: Answer[];
  terminal: Terminal;
  reason: string;
  verdicts: Verdicts;
  started: string;
  /** The size in CSS pixels the attempt's page was opened at; absent when not recorded. */
  viewport?: Size;
  video?: string;
  /** The Playwright trace (a zip for `npx playwright show-trace`), when one was recorded. */
  trace?: string;
  /** What the browser logged around the error that ended the attempt; `reason` keeps its first line. */
  browser_log?: string;
  /** What the agent that drove the attempt said of it (agent.Claim); judged as the signal "agent_claim". */
  claim?: Claim;
}

/** An agent's claim about its attempt (agent.Claim): evidence of its belief, never of the effect. */
export interface Claim {
  done: boolean;
  answer?: string;
  source: "mcp" | "process" | "planner";
  words?: string;
}

/** One batch of attempts of one task (agent.Run). */
export interface Run {
  id: string;
  /** The task's name. */
  task: string;
  /** The task document the run was made from; absent for a lab's built-in task. */
  spec?: unknown;
  created: string;
  status: RunStatus;
  source: string;
  /** The address the run's lab listened on and sent the browser to; absent when not recorded. */
  lab_host?: string;
  attempts: Attempt[] | null;
}

/**
 * An attempt as Runs.Header gives it (store.AttemptHeader): everything but its steps, which are
 * counted and, for an attempt of at most 200 steps, summarised (null for a longer one: see
 * Runs.Summaries).
 */
export interface AttemptHeader extends Omit<Attempt, "steps"> {
  steps: StepSummary[] | null;
  step_count: number;
  /** The model turns of all its steps, and whether a model's done call became one of its actions. */
  turns?: number;
  said_done?: boolean;
}

/** A run as Runs.Header gives it: its attempts' steps summarised (store.RunHeader). */
export interface RunHeader extends Omit<Run, "attempts"> {
  attempts: AttemptHeader[] | null;
}

/** One scripted attempt a task offers (agent.AttemptSpec). */
export interface AttemptSpec {
  slug: string;
  title: string;
  fault?: string;
  params?: Record<string, number>;
  config: Config;
  /** The attempt's own scripted plan; absent follows the task's. */
  plan?: Action[];
}

/**
 * A task as Runs.Tasks lists it (app.TaskInfo). columns is a judged-empty Verdicts: its ids
 * and labels name the attempts table's columns and the gate's checklist.
 */
export interface TaskInfo {
  /** Names the task in a StartRequest ("lab:booking", "file:3fa9…"). */
  ref: string;
  /** The task file's name, for a task opened from a file. */
  file?: string;
  /** Where the task file is, for one picked in the desktop's dialog. */
  path?: string;
  /**
   * Why a remembered task file cannot be opened now (moved or deleted, or no longer valid); such
   * a task is listed but cannot run until it is opened again.
   */
  missing?: string;
  task: Task;
  plan: Action[] | null;
  attempts: AttemptSpec[] | null;
  columns: Verdicts;
  /** The environment variables a task file reads, and whether the user allowed each (taskfile.EnvVar). */
  env?: EnvVar[];
}

/** One environment variable a task file reads (taskfile.EnvVar). */
export interface EnvVar {
  name: string;
  /** Where the file reads it ("base_url", "plan[2].value_env"). */
  fields: string[];
  /** Read as the file loads (base_url, SQLite paths). */
  at_load?: boolean;
  /** Its name looks like a credential's: only its own name allows it. */
  secret?: boolean;
  allowed?: boolean;
}

/** The oracle's answer at one moment (agent.Check). */
export interface Check {
  gate: Gate;
  settled?: Terminal;
  settled_reason?: string;
}

/** The argument of Runs.Start. */
export interface StartRequest {
  /** A TaskInfo's ref. */
  task: string;
  attempts: string[];
  config: ConfigOverride | null;
  /** Environment variables the user allowed the task for this run, answering the window's question. */
  allow_env?: string[];
}

/** One row of Runs.History (store.Summary). */
export interface RunSummary {
  id: string;
  task: string;
  /** When the run started. */
  created: string;
  /** When it came into this history: its start, or its import. */
  added: string;
  status: RunStatus;
  /** "live", or the file it was imported from. */
  source: string;
  attempts: number;
  completed: number;
  /** Finished attempts with at least one verdict that disagrees with the ground truth. */
  wrong: number;
  /** The address the run's lab listened on, when recorded. */
  lab_host?: string;
}

/**
 * A verdict the run file recorded that replay recomputed differently (runfile.Disagreement).
 * verdict is "truth", a signal's id, "gate", "gate.<condition id>", any of those followed by
 * " (evidence)" or " (could not confirm)", "terminal" or "task".
 */
export interface Disagreement {
  attempt: string;
  verdict: string;
  recorded: string;
  recomputed: string;
}

/** One rebuilt replay frame; event is null for the initial state (agent.Frame). */
export interface Frame {
  index: number;
  event: AppEvent | null;
  /** The app's own state, shown as key/value text. */
  state: unknown;
  gate: Gate;
}

/** The result of Runs.Replay (runfile.AttemptReplay). */
export interface Replay {
  /** Empty when the task's app keeps no event log. */
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
  /** Record request and response bodies with each step's network traffic, bounded. */
  bodies?: boolean;
  /** How many attempts run at once; absent or 1: one after another. */
  parallel?: number;
  /** The models that plan runs when a model plans, tried in order. */
  models?: ModelConfig[];
  /** Who plans runs started here: the task's script (default; a task without a plan still goes to a model) or a model. */
  planner?: "script" | "model";
  /** Which runs the history keeps; an absent or zero limit is off (retention.Policy). */
  retention?: Retention;
  /** "off" runs the same plan without the harness: the naive column (no holds, review or approval). */
  harness?: "on" | "off";
  /** Folders, besides a task file's own, where the files it names may be. */
  allow_paths?: string[];
  /** Environment variables task files may read: names, or patterns with * that never match a secret-looking name. */
  allow_env?: string[];
  /** Let task files reach link-local and cloud-metadata hosts. */
  allow_link_local?: boolean;
}

/** The history's retention: runs past either limit are deleted after each run and at start. */
export interface Retention {
  /** Keep the newest keep_last runs. */
  keep_last?: number;
  /** Keep the runs added within the last keep_days days. */
  keep_days?: number;
}

/** One model a run may be planned by (model.ModelConfig). Its key stays in the backend's environment. */
export interface ModelConfig {
  provider: "openai" | "anthropic";
  /** Empty: the provider's own API; an OpenAI-compatible server's URL (Ollama: http://127.0.0.1:11434/v1). */
  base_url?: string;
  model: string;
  /** The environment variable holding the key (ends in _API_KEY or _TOKEN); empty sends no key. */
  api_key_env?: string;
  /** The OS keyring entry (service "observatory") holding the key, in place of api_key_env. */
  api_key_keyring?: string;
  /** US dollars per million input and output tokens, which a money budget counts. */
  price_in_per_mtok?: number;
  price_out_per_mtok?: number;
}

/** What a model answered to Settings.TestModel's one tiny request. */
export interface ModelTest {
  /** "provider:model". */
  model: string;
  /** Its words and tool calls. */
  reply: string;
  latency_ms: number;
}

/** What a `run` event reports. */
export type ProgressKind =
  | "run-started"
  | "attempt-started"
  | "step"
  | "screencast"
  | "check"
  | "frame"
  | "attempt-finished"
  | "media-saved"
  | "run-finished"
  | "error"
  | "model-wait";

/** One live picture of a running attempt's page (agent.LiveFrame). */
export interface LiveFrame {
  /** The JPEG, base64. */
  jpeg: string;
  /** When it was taken (RFC 3339). */
  at: string;
}

/** What a health check found of one browser endpoint (app.EndpointHealth). */
export interface EndpointHealth {
  name: string;
  kind: "local" | "browser-server" | "cdp";
  url?: string;
  connects: boolean;
  version?: string;
  error?: string;
  /** Attempts running there now. */
  running: number;
  check_ms: number;
  /** Whether its pages can be watched live. */
  live: boolean;
}

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
  /** screencast: a live frame of the attempt's page; absent when it cannot be streamed (message says why). */
  live?: LiveFrame;
  /** attempt-started, attempt-finished: the browser endpoint the attempt runs on. */
  endpoint?: string;
  /** media-saved: the attempt's video and trace, written after its verdict. */
  media?: { video?: string; trace?: string };
  status?: RunStatus;
  /** model-wait: true while waiting for a model, false once one answers again. */
  waiting?: boolean;
  /** The event's number in its run, from 1, on the `run` events of a run started from a window. */
  seq?: number;
  message?: string;
}

/** The user's answer to an approval request (agent.ApprovalAnswer); none is no answer: held. */
export type ApprovalAnswer = "approve" | "deny" | "none";

/**
 * What approving one irreversible action would let happen, in the user's words
 * (agent.ApprovalRequest): the control, the recipient, the amount, the form's data and what
 * cannot be undone, with the page's screenshot as it was asked.
 */
export interface ApprovalRequest {
  /** The index of the step that asks (0-based). */
  step: number;
  /** The step's description ("Send the message"). */
  action: string;
  /** The control it uses, as agent.Target.String writes it ("button[Send]"). */
  target: string;
  recipient?: string;
  amount?: string;
  /** The form's fields as the action would send them. */
  data: Field[] | null;
  /** The signed-in account it runs as, and the task's relevant text, when the task declares them. */
  principal?: string;
  facts?: Fact[] | null;
  permanence: string;
  url: string;
  /** The page as the request was made, relative to the run's media folder. */
  screenshot?: string;
  /** Where the control was on that screenshot, measured just before asking. */
  target_box?: Box;
  hash: string;
  /** Why the user is asked again: what changed since their last approval. */
  again?: string;
}

/**
 * One approval request of a run started from this window (app.ApprovalAsk), sent as the
 * `approval` event when it opens and again when it closes.
 */
export interface ApprovalAsk {
  /** Names the request in Approvals.Answer. */
  id: string;
  run_id: string;
  slug: string;
  request: ApprovalRequest;
  /** True while the request waits for the user's answer. */
  open: boolean;
  /** What came of a closed request. */
  answer?: ApprovalAnswer;
}

/** What Session.Ready answers: where the UI runs. */
export interface SessionInfo {
  version: string;
  transport: string;
  data_dir: string;
}

/** How Runs.Metrics groups the attempts of the history. */
export type MetricsBy = "task" | "lab" | "attempt" | "planner" | "risk";

/** The mean milliseconds of each stage of the loop (metrics.Latency). */
export interface StageLatency {
  plan_ms: number;
  act_ms: number;
  verify_ms: number;
}

/** The outcome metrics of one group of attempts (metrics.Slice); rates are 0 to 1. */
export interface MetricsSlice {
  key: string;
  runs: number;
  attempts: number;
  completed: number;
  /** Attempts whose ground truth could not be confirmed: left out of the truth's rates. */
  unconfirmed: number;
  intended_success: number;
  wrong_target_rate: number;
  revalidation_stop_rate: number;
  approvals: number;
  confirmation_burden: number;
  recovery_loops: number;
  side_effect_leaks: number;
  duplicate_side_effects: number;
  policy_denials: number;
  injection_stops: number;
  latency: StageLatency;
}

/** Runs.Metrics: one slice per group, in key order. */
export interface MetricsReport {
  by: MetricsBy;
  slices: MetricsSlice[];
}

/** One side of a comparison: which run (compare.Run). */
export interface CompareRun {
  id: string;
  task: string;
  created: string;
  status: RunStatus;
  source: string;
}

/** One side's verdict in one check's column (compare.Call). */
export interface CompareCall {
  /** "truth", a signal's id or "gate". */
  id: string;
  done: boolean;
  unconfirmed?: boolean;
  /** The call disagrees with the ground truth. */
  wrong?: boolean;
}

/** What one run recorded of one attempt (compare.Side). */
export interface CompareSide {
  terminal: Terminal;
  reason: string;
  calls: CompareCall[];
  wrong: number;
  steps: number;
  /** When its last step ended, from the attempt's start. */
  duration_ms: number;
}

/** One attempt slug in both runs; a side is null where its run has no such attempt (compare.Row). */
export interface CompareRow {
  slug: string;
  title: string;
  a: CompareSide | null;
  b: CompareSide | null;
  /** What differs: "present", "terminal", a check's id, "steps", "duration". */
  differs: string[];
}

/** Two runs side by side, attempt by attempt (Runs.Compare, compare.Comparison). */
export interface Comparison {
  a: CompareRun;
  b: CompareRun;
  /** The verdict columns: the ground truth, the signals, the gate. */
  checks: { id: string; label: string }[];
  rows: CompareRow[];
  /** How many rows differ. */
  differing: number;
}

/** k successes of n trials (stats.Proportion). */
export interface Proportion {
  k: number;
  n: number;
}

/** One attempt's completion rate in two runs, trials pooled, and whether they differ (compare.RateRow). */
export interface RateRow {
  /** The attempt's slug, or "overall". */
  attempt: string;
  a: Proportion;
  b: Proportion;
  /** B's rate minus A's, with Newcombe's 95% interval. */
  difference: number;
  interval: { lo: number; hi: number };
  /** The exact test: McNemar's on paired trials, Fisher's otherwise. */
  test: "mcnemar" | "fisher";
  p: number;
  only_a?: number;
  only_b?: number;
  /** p below 0.05. */
  significant: boolean;
  /** In words: which run completes more often, or "no evidence of a difference". */
  verdict: string;
}

/** Two runs as an A/B test over their trials (Runs.CompareRates, compare.RateComparison). */
export interface RateComparison {
  a: CompareRun;
  b: CompareRun;
  /** Largest change first. */
  rows: RateRow[];
  overall: RateRow;
  /** Attempts only one run has. */
  unmatched?: string[];
}

/** One browser Observatory looks for (browser.Candidate). */
export interface BrowserCandidate {
  /** "named" (a path given), "chrome", "msedge", "chromium", "playwright", or "headless-shell" (the headless shell beside one). */
  kind: "named" | "chrome" | "msedge" | "chromium" | "playwright" | "headless-shell";
  /** Its name for people: "Google Chrome", "Playwright's Chromium". */
  label: string;
  path: string;
  found: boolean;
  /** Why one not found was passed over. */
  note?: string;
}

/** How far a download or unpack has come (browser.Progress): bytes, or files while unpacking. */
export interface SetupProgress {
  phase: "" | "driver" | "node" | "chromium" | "unpack";
  done: number;
  /** 0 when not known yet. */
  total: number;
}

/** The browser setup's state (Browsers.Status().setup and the "browser-setup" event). */
export interface SetupState {
  state: "idle" | "running" | "done" | "failed" | "cancelled";
  progress: SetupProgress;
  error?: string;
  /** A problem that did not stop it. */
  warning?: string;
}

/** What runs need and what is there (Browsers.Status). */
export interface BrowserStatus {
  /** Runs can start: the Playwright driver and a browser are there. */
  ready: boolean;
  driver: boolean;
  driver_problem?: string;
  /** The browser runs use; absent when none is found. */
  chosen?: BrowserCandidate;
  browser_problem?: string;
  /** What headless runs use in place of chosen: the headless shell beside it; absent when they use chosen. */
  headless?: BrowserCandidate;
  /** Every browser looked for, in order. */
  candidates: BrowserCandidate[];
  setup: SetupState;
  /** The command line that does the same setup. */
  command: string;
}

/** The run going now, for a window that opens while it goes (Runs.Going). */
export interface GoingRun {
  /** "" when no run is going. */
  id: string;
  /** The slugs the run tries, in order. */
  planned: string[] | null;
  /** What the window has been told of it so far, in order, each with its seq. */
  events: Progress[] | null;
}
