// The UI's names for the Go JSON types, made from the generated contract in ./generated
// (go run -tags bindings ./app/bindgen frontend/src/api/generated): most are the generated
// interfaces as they are. Refine narrows what the generator cannot know: Go string types whose
// constants the UI switches on, time.Time (an RFC 3339 string), json.RawMessage, omitzero
// fields (absent when zero), and nil slices without omitempty (sent as null). Refine accepts
// only fields the Go type has, so a renamed Go field fails the type check here as well as
// wherever the UI reads it.
import type { agent, app, browser, compare, ledger, metrics, model, retention, runfile, stats, store, taskfile } from "./generated/models";

/** T with the fields of R in place of its own; every field of R must be one of T's. */
type Refine<T, R extends { [K in keyof R]: K extends keyof T ? unknown : never }> = Omit<T, keyof R> & R;

/** A Go time.Time as JSON carries it: an RFC 3339 string. */
type Time = string;

/** How an attempt ended (agent.Terminal). */
export type Terminal = "completed" | "failed" | "rejected" | "exhausted" | "cancelled" | "ambiguous";

/** Where a run stands (agent.RunStatus). */
export type RunStatus = "running" | "finished" | "cancelled" | "interrupted" | "imported";

/** What the user asked for, as data (agent.Task). */
export type Task = agent.Task;

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
export type Target = Refine<agent.Target, { frame?: agent.FrameRef[]; within?: agent.Container }>;

/** One planned step (agent.Action). */
export type Action = Refine<agent.Action, { kind: ActionKind; target: Target }>;

/** How the executor waits (agent.WaitMode). */
export type WaitMode = "fixed" | "condition";

/** How targets are located (agent.SelectorMode). */
export type SelectorMode = "exact" | "alias";

/** A reviewer's rule: a CEL expression that flags an action, and why (agent.ReviewRule). */
export type ReviewRule = agent.ReviewRule;

/** The review irreversible actions get (agent.ReviewSpec). */
export type ReviewSpec = agent.ReviewSpec;

/** The review and approval irreversible actions get (agent.Safeguards). */
export type Safeguards = agent.Safeguards;

/** The numbers and policies one attempt runs with (agent.Config); durations in ms. */
export type Config = Refine<agent.Config, { wait: WaitMode; selectors: SelectorMode }>;

/** Config fields that override every attempt's own; an absent field keeps the attempt's (agent.ConfigOverride). */
export type ConfigOverride = Refine<agent.ConfigOverride, { wait?: WaitMode; selectors?: SelectorMode }>;

/** One lab app event (agent.Event). */
export type AppEvent = agent.Event;

/**
 * One yes/no call with its evidence (agent.Verdict). unconfirmed, when set, says why the
 * oracle could not answer at all: the call is "could not confirm", never done.
 */
export type Verdict = Pick<agent.Signal, "done" | "evidence" | "unconfirmed">;

/** One named completion condition (agent.Condition). */
export type Condition = agent.Condition;

/** One named verdict beside the gate: the ground truth or a weaker check (agent.Signal). */
export type Signal = agent.Signal;

/** The completion gate's result (agent.Gate). */
export type Gate = Refine<agent.Gate, { conditions: Condition[] | null }>;

/** Every way of deciding whether an attempt worked: ground truth, the task's signals, the gate (agent.Verdicts). */
export type Verdicts = Refine<agent.Verdicts, { signals: Signal[] | null; gate: Gate }>;

/** A page's answer to one condition's question (agent.Answer); raw is the answer as JSON. */
export type Answer = Refine<agent.Answer, { raw?: unknown }>;

/** What an action does, in the harness's terms (agent.ActionClass). */
export type ActionClass = "observe" | "prepare" | "commit" | "explore" | "destruct";

/** What a step promises about the world (agent.Contract). */
export type Contract = "read" | "navigate" | "mutate" | "irreversible" | "control";

/** A reviewer's call on an action (agent.Review). */
export type Review = Refine<agent.Review, { verdict: "clear" | "caution" | "unavailable" }>;

/** The harness's decision on one action (agent.Decision). */
export type Decision = Refine<
  agent.Decision,
  { class: ActionClass; admission: "allow" | "hold" | "deny"; contract?: Contract; review?: Review; risk?: "low" | "high" }
>;

/** What the page looked like when an action was decided (agent.Fingerprint). */
export type Fingerprint = agent.Fingerprint;

/** One row of the side-effect ledger (ledger.Entry). */
export type LedgerEntry = ledger.Entry;

/** The user's answer to an irreversible action (agent.Approval). */
export type Approval = Refine<agent.Approval, { request: ApprovalRequest; answer: ApprovalAnswer }>;

/** How an ambiguous commit was settled (agent.Reconciliation). */
export type Reconciliation = Refine<
  agent.Reconciliation,
  { outcome: "completed" | "retry" | "failed" | "duplicate"; retry?: Action }
>;

/** An accessible role and name (agent.RoleName). */
export type RoleName = agent.RoleName;

/** A form field's role, name and value (agent.Field). */
export type Field = agent.Field;

/** A width and height in CSS pixels (agent.Size). */
export type Size = agent.Size;

/** What checking an imported run's signature found (agent.Signature). */
export type Signature = Refine<agent.Signature, { status: SignatureStatus }>;

/** The four answers of a signature check (signing.Status). */
export type SignatureStatus = "verified" | "untrusted" | "unsigned" | "mismatch";

/** A page region the sample could not read (agent.Region). */
export type Region = Refine<agent.Region, { kind: "canvas" | "unlabelled" }>;

/** What the page looked like at one moment (agent.Sample). */
export type Sample = Refine<
  agent.Sample,
  { fields: Field[] | null; rows: string[][] | null; pairs: RoleName[] | null; unreadable?: Region[]; facts?: Fact[] | null }
>;

/** The focused element (agent.Focus). */
export type Focus = agent.Focus;

/** One fact the task's authority probes read (agent.Fact). */
export type Fact = agent.Fact;

/** A file uploaded or downloaded (agent.Transfer). */
export type Transfer = Refine<agent.Transfer, { kind: "upload" | "download" }>;

/** One tool call a model made (agent.ModelCall). */
export type ModelCall = Refine<agent.ModelCall, { outcome: "proposed" | "answered" | "rejected" | "refused" }>;

/** A conversation's compaction (agent.Compaction). */
export type Compaction = agent.Compaction;

/** One model turn (agent.ModelTurn). */
export type ModelTurn = Refine<agent.ModelTurn, { calls?: ModelCall[] }>;

/** An element's box on the page (agent.Box). */
export type Box = agent.Box;

/** An element the executor considered (agent.Candidate). */
export type Candidate = agent.Candidate;

/** One step, with the page before and after (agent.Step). */
export type Step = Refine<
  agent.Step,
  {
    action: Action;
    provenance?: "observed";
    decision: Decision;
    model_turns?: ModelTurn[];
    approvals?: Approval[];
    reconciliation?: Reconciliation;
    before: Sample;
    after: Sample;
    requests?: NetRequest[];
    dropped?: Dropped;
    transfers?: Transfer[];
  }
>;

/** A step's summary in a run header (agent.StepSummary). */
export type StepSummary = Refine<agent.StepSummary, { kind: ActionKind; class: ActionClass; admission: Decision["admission"] }>;

/** One HTTP header (agent.Header). */
export type Header = agent.Header;

/** A recorded request or response body (agent.Body). */
export type Body = agent.Body;

/** One network request (agent.Request). */
export type NetRequest = Refine<agent.Request, { request_body?: Body; response_body?: Body }>;

/** One request of an attempt with the step during which it ended (app.AttemptRequest). */
export type AttemptRequest = Refine<app.AttemptRequest, { request_body?: Body; response_body?: Body }>;

/** Every request of an attempt, and how many the steps' limits left out (app.AttemptRequests). */
export type AttemptRequests = Refine<app.AttemptRequests, { requests: AttemptRequest[] }>;

/** One console message (agent.ConsoleMessage). */
export type ConsoleMessage = agent.ConsoleMessage;

/** One uncaught page error (agent.PageError). */
export type PageError = agent.PageError;

/** How many records a step dropped past its caps (agent.Dropped). */
export type Dropped = agent.Dropped;

/** One attempt (agent.Attempt). */
export type Attempt = Refine<
  agent.Attempt,
  {
    config: Config;
    plan: Action[] | null;
    steps: Step[] | null;
    model_turns?: ModelTurn[];
    events: AppEvent[] | null;
    answers?: Answer[];
    terminal: Terminal;
    verdicts: Verdicts;
    started: Time;
    claim?: Claim;
  }
>;

/** What the agent said of its own work (agent.Claim). */
export type Claim = Refine<agent.Claim, { source: "mcp" | "process" | "planner" }>;

/** One run (agent.Run). */
export type Run = Refine<agent.Run, { spec?: unknown; created: Time; status: RunStatus; attempts: Attempt[] | null; signature?: Signature }>;

/** An attempt with its steps summarised (store.AttemptHeader). */
export type AttemptHeader = Refine<store.AttemptHeader, Omit<Attempt, "steps"> & { steps: StepSummary[] | null }>;

/** A run with its attempts' steps summarised (store.RunHeader). */
export type RunHeader = Refine<store.RunHeader, { spec?: unknown; created: Time; status: RunStatus; attempts: AttemptHeader[] | null; signature?: Signature }>;

/** One attempt a task offers (agent.AttemptSpec). */
export type AttemptSpec = Refine<agent.AttemptSpec, { config: Config; plan?: Action[] }>;

/** A task the UI can run (app.TaskInfo). */
export type TaskInfo = Refine<
  app.TaskInfo,
  { plan: Action[] | null; attempts: AttemptSpec[] | null; columns: Verdicts }
>;

/** A variable a task file reads from the environment (taskfile.EnvVar). */
export type EnvVar = taskfile.EnvVar;

/** The gate's check after an action (agent.Check). */
export interface Check {
  gate: Gate;
  settled?: Terminal;
  settled_reason?: string;
}

/** What Runs.Start runs (app.StartRequest). */
export type StartRequest = Refine<app.StartRequest, { config: ConfigOverride | null }>;

/** One run in the history (store.Summary). */
export type RunSummary = Refine<store.Summary, { created: Time; added: Time; status: RunStatus; signature?: Signature }>;

/** One task of a SuiteRequest (app.SuiteTask): empty attempts runs them all. */
export type SuiteTask = app.SuiteTask;

/** The argument of Runs.StartSuite: tasks run one after another, every attempt repeated (app.SuiteRequest). */
export type SuiteRequest = Refine<app.SuiteRequest, { config: ConfigOverride | null }>;

/** One trial of a suite run's grid (app.SuiteCell); terminal is "" while it has not ended. */
export type SuiteCell = Refine<app.SuiteCell, { terminal: Terminal | "" }>;

/** One attempt of one task of a suite run, its trials in order (app.SuiteRow). */
export type SuiteRow = Refine<app.SuiteRow, { cells: SuiteCell[] }>;

/** A suite run as Runs.Suite reads it: its runs, the grid of trials, and the estimates (app.SuiteReport). */
export type SuiteReport = Refine<
  app.SuiteReport,
  { runs: Refine<app.SuiteRunRef, { created: Time; status: RunStatus }>[]; rows: SuiteRow[]; estimates: MetricsReport }
>;

/** A recorded verdict that import recomputed differently (runfile.Disagreement). */
export type Disagreement = runfile.Disagreement;

/** One frame of a replay (agent.Frame). */
export type Frame = Refine<agent.Frame, { event?: AppEvent | null; state: unknown; gate: Gate }>;

/** An attempt's replay (runfile.AttemptReplay). */
export type Replay = Refine<
  runfile.AttemptReplay,
  { frames: Frame[] | null; recorded: Verdicts; recomputed: Verdicts; disagreements: Disagreement[] | null }
>;

/** What importing a run file gave (app.ImportResult). */
export type ImportResult = Refine<app.ImportResult, { disagreements: Disagreement[] | null }>;

/** The user's settings (app.UserSettings). */
export type Settings = Refine<
  app.UserSettings,
  { config: ConfigOverride; models?: ModelConfig[]; planner?: "script" | "model"; retention?: Retention; harness?: "on" | "off" }
>;

/** How many runs the history keeps (retention.Policy). */
export type Retention = retention.Policy;

/** A model provider's settings (model.ModelConfig). */
export type ModelConfig = Refine<model.ModelConfig, { provider: "openai" | "anthropic" }>;

/** A model test's answer (app.ModelTest). */
export type ModelTest = app.ModelTest;

/** What a progress event tells (app.RunEvent's kind). */
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

/** One live screencast frame (agent.LiveFrame). */
export interface LiveFrame {
  jpeg: string;
  at: string;
}

/** A browser endpoint's health (app.EndpointHealth). */
export type EndpointHealth = Refine<app.EndpointHealth, { kind: "local" | "browser-server" | "cdp" }>;

/** One run progress event (app.RunEvent). */
export type Progress = Refine<
  app.RunEvent,
  {
    kind: ProgressKind;
    step?: Step;
    check?: Check;
    attempt?: Attempt;
    live?: LiveFrame;
    media?: { video?: string; trace?: string };
    status?: RunStatus;
    seq?: number;
  }
>;

/** The user's answer to an approval request (agent.Approval's answer). */
export type ApprovalAnswer = "approve" | "deny" | "none";

/** What an irreversible action asks the user to approve (agent.ApprovalRequest). */
export type ApprovalRequest = Refine<agent.ApprovalRequest, { data: Field[] | null; facts?: Fact[] | null }>;

/** An approval request opening or closing (app.ApprovalAsk). */
export type ApprovalAsk = Refine<app.ApprovalAsk, { request: ApprovalRequest; answer?: ApprovalAnswer }>;

/** The session's facts (app.SessionInfo). */
export type SessionInfo = app.SessionInfo;

/** What metrics are grouped by (metrics.By). */
export type MetricsBy = "task" | "lab" | "attempt" | "planner" | "risk";

/** Median stage latencies (metrics.Latency). */
export type StageLatency = metrics.Latency;

/** One group's metrics (metrics.Slice). */
export type MetricsSlice = metrics.Slice;

/** A metrics report (metrics.Report). */
export type MetricsReport = Refine<metrics.Report, { by: MetricsBy }>;

/** The estimates of a slice (metrics.Estimates, embedded in metrics.Slice); rates are 0 to 1. */
export type Estimates = Pick<
  MetricsSlice,
  "success_interval" | "pass_at_k" | "pass_hat_k" | "median_steps" | "median_wall_ms" | "tokens_per_success" | "cost_per_success_usd" | "flaky"
>;

/** One attempt of one stored run (metrics.AttemptRef). */
export type AttemptRef = metrics.AttemptRef;

/** A proportion with its Wilson 95% interval (metrics.Rate). */
export type CalibrationRate = metrics.Rate;

/** A signal's calls against a reference, cell by cell, with the attempts behind each (metrics.Confusion). */
export type Confusion = Refine<
  metrics.Confusion,
  {
    true_done: AttemptRef[] | null;
    false_done: AttemptRef[] | null;
    false_not_done: AttemptRef[] | null;
    true_not_done: AttemptRef[] | null;
    unconfirmed: AttemptRef[] | null;
  }
>;

/** One signal's calibration against the truth or the gate (metrics.Calibrated). */
export type Calibrated = Refine<metrics.Calibrated, { against: "truth" | "gate"; confusion: Confusion }>;

/** Analysis.Calibration: each signal's calibration per group and overall (metrics.Calibration). */
export type CalibrationReport = Refine<
  metrics.Calibration,
  { by: MetricsBy; slices: { key: string; signals: Calibrated[] }[]; overall: { key: string; signals: Calibrated[] } }
>;

/** One side of a comparison's run (compare.Run). */
export type CompareRun = Refine<compare.Run, { created: Time; status: RunStatus }>;

/** One verdict on one side (compare.Call). */
export type CompareCall = compare.Call;

/** One attempt's side of a comparison (compare.Side). */
export type CompareSide = Refine<compare.Side, { terminal: Terminal }>;

/** One attempt compared (compare.Row). */
export type CompareRow = Refine<compare.Row, { a: CompareSide | null; b: CompareSide | null }>;

/** Two runs compared (compare.Comparison). */
export type Comparison = Refine<compare.Comparison, { a: CompareRun; b: CompareRun; rows: CompareRow[] }>;

/** k successes in n (stats.Proportion). */
export type Proportion = stats.Proportion;

/** One attempt's rates compared (compare.RateRow). */
export type RateRow = Refine<compare.RateRow, { test: "mcnemar" | "fisher" }>;

/** Two runs' rates compared (compare.RateComparison). */
export type RateComparison = Refine<compare.RateComparison, { a: CompareRun; b: CompareRun; rows: RateRow[]; overall: RateRow }>;

/** A browser the app could use (browser.Candidate). */
export type BrowserCandidate = Refine<
  browser.Candidate,
  { kind: "named" | "chrome" | "msedge" | "chromium" | "playwright" | "headless-shell" }
>;

/** The browser setup's progress (browser.Progress). */
export type SetupProgress = Refine<browser.Progress, { phase: "" | "driver" | "node" | "chromium" | "unpack" }>;

/** Where the browser setup stands (app.SetupState). */
export type SetupState = Refine<
  app.SetupState,
  { state: "idle" | "running" | "done" | "failed" | "cancelled"; progress: SetupProgress }
>;

/** Which browser runs use (app.BrowserStatus). */
export type BrowserStatus = Refine<
  app.BrowserStatus,
  { chosen?: BrowserCandidate; headless?: BrowserCandidate; candidates: BrowserCandidate[]; setup: SetupState }
>;

/** The run going on, with the events so far (app.GoingRun). */
export type GoingRun = Refine<app.GoingRun, { planned: string[] | null; events: Progress[] | null }>;
