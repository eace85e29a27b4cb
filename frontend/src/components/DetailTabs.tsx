import type { AppEvent, AttemptHeader, Check, Replay, Step } from "../api/types";
import { Tabs, type Tab } from "../layout/Tabs";
import { diffSamples } from "../trace/diff";
import type { Column } from "../verdicts";
import { AnswerList } from "./AnswerList";
import { AttemptNetwork, type AttemptNetworkProps } from "./AttemptNetwork";
import { BlockedList } from "./BlockedList";
import { CallView } from "./CallView";
import { ConsoleList } from "./ConsoleList";
import { TransferList } from "./TransferList";
import { DecisionView } from "./DecisionView";
import { DiffView } from "./DiffView";
import { EventList } from "./EventList";
import { GateChecklist } from "./GateChecklist";
import { Help } from "./Help";
import { LedgerPanel, type LedgerPanelProps } from "./LedgerPanel";
import { ModelTurns } from "./ModelTurns";
import { NetworkPanel } from "./NetworkPanel";
import { PageErrorList } from "./PageErrorList";
import { ReplayPanel } from "./ReplayPanel";
import { SampleView } from "./SampleView";
import { VerdictList } from "./VerdictList";
import { failed } from "../trace/network";

/** Props of DetailTabs. */
export interface DetailTabsProps {
  title: string;
  /** The chosen step whole; absent while there is none, or while it is read (pending says so). */
  step?: Step;
  pending?: string;
  /** The finished attempt; absent while it runs. */
  attempt?: AttemptHeader;
  /** While it runs: the latest gate check and the app events so far. */
  check?: Check;
  events: AppEvent[];
  columns: Column[];
  /** An imported run's replay of the attempt, null while it is on its way. */
  replay?: Replay | null;
  frame: number;
  onFrame(i: number): void;
  tab: string;
  onTab(id: string): void;
  /** The finished attempt's action ledger; absent while it runs. */
  ledger?: LedgerPanelProps;
  /** The finished attempt's requests, every step's; absent while it runs. */
  requests?: AttemptNetworkProps;
}


/**
 * The tabs under the screenshot: the gate with its evidence, the verdicts, what the step
 * changed, the page's facts, the oracle's raw answers, the app's events, the step's call (its
 * locator, arguments, timing and log), the decision, the step's network requests and the
 * whole attempt's, console messages and page errors, the attempt's action ledger, the blocked
 * requests, the files a step uploaded or saved (when it moved any), and an imported run's
 * replay.
 */
export function DetailTabs(p: DetailTabsProps) {
  const { step, attempt } = p;
  /** Says a panel has nothing to show until a step is chosen, or read. */
  const noStep = <p className="muted">{p.pending ?? "No step observed yet."}</p>;
  const conditions = attempt?.verdicts.gate.conditions ?? p.check?.gate.conditions ?? null;
  const blocked = step?.blocked ?? [];
  const requests = step?.requests ?? [];
  const failedCount = requests.filter(failed).length;
  const console = step?.console ?? [];
  const errors = step?.page_errors ?? [];
  const ending = attempt?.model_turns ?? [];
  const modelTurns = (step?.model_turns?.length ?? 0) + ending.length;
  const tabs: Tab[] = [
    {
      id: "gate",
      label: "Gate",
      panel: () => (
        <>
          <p className="tab-note muted">
            Done only when every condition holds <Help term="gate" topic="the completion gate" />. A condition the oracle could not
            answer reads “could not confirm” <Help term="unconfirmed" topic="could not confirm" />.
          </p>
          <GateChecklist heading="Completion gate" conditions={conditions} answers={attempt?.answers} empty="Waiting for the first check." />
          {p.check?.settled && !attempt && <p className="muted">Settled {p.check.settled}: {p.check.settled_reason}</p>}
        </>
      ),
    },
    {
      id: "verdicts",
      label: "Verdicts",
      panel: () =>
        attempt ? (
          <>
            <p className="tab-note muted">
              Ground truth, the task's signals and the gate <Help term="signal" topic="a signal such as Parallax's check" />
            </p>
            <VerdictList attempt={attempt} columns={p.columns} />
          </>
        ) : (
          <p className="muted">The verdicts come when the attempt finishes.</p>
        ),
    },
    {
      id: "diff",
      label: "Diff",
      panel: () => (step ? <DiffView diff={diffSamples(step.before, step.after)} /> : noStep),
    },
    {
      id: "page",
      label: "Page",
      panel: () =>
        step ? (
          <div className="samples">
            <SampleView heading="Before" sample={step.before} />
            <SampleView heading="After" sample={step.after} />
          </div>
        ) : (
          noStep
        ),
    },
    {
      id: "evidence",
      label: "Evidence",
      panel: () => (attempt ? <AnswerList answers={attempt.answers ?? []} names={attempt.verdicts} /> : <p className="muted">The oracle's answers come when the attempt finishes.</p>),
    },
    {
      id: "events",
      label: `Events (${p.events.length})`,
      panel: () => <EventList events={p.events} until={step ? step.start_ms + step.duration_ms : undefined} />,
    },
    { id: "call", label: "Call", panel: () => (step ? <CallView step={step} /> : noStep) },
    { id: "decision", label: "Decision", panel: () => (step ? <DecisionView step={step} /> : noStep) },
    {
      id: "ledger",
      label: "Ledger",
      panel: () => (p.ledger ? <LedgerPanel {...p.ledger} /> : <p className="muted">The ledger comes when the attempt finishes.</p>),
    },
    ...(modelTurns > 0
      ? [{ id: "model", label: `Model (${modelTurns})`, panel: () => <ModelTurns step={step} gateDone={attempt?.verdicts.gate.done} ending={ending} /> }]
      : []),
    {
      id: "network",
      label: failedCount > 0 ? `Network (${requests.length}, ${failedCount} failed)` : `Network (${requests.length})`,
      panel: () => (step ? <NetworkPanel key={`${p.title}-${step.index}`} requests={requests} dropped={step.dropped?.requests} /> : noStep),
    },
    {
      id: "all-requests",
      label: "All requests",
      panel: () => (p.requests ? <AttemptNetwork {...p.requests} /> : <p className="muted">The attempt's requests come when it finishes.</p>),
    },
    {
      id: "console",
      label: `Console (${console.length})`,
      panel: () => (step ? <ConsoleList key={`${p.title}-${step.index}`} messages={console} dropped={step.dropped?.console} /> : noStep),
    },
    {
      id: "errors",
      label: `Errors (${errors.length})`,
      panel: () => (step ? <PageErrorList errors={errors} dropped={step.dropped?.errors} /> : noStep),
    },
    {
      id: "blocked",
      label: `Blocked (${blocked.length})`,
      panel: () => (
        <>
          <p className="tab-note muted">
            Requests outside the task's origins <Help term="blocked" topic="a blocked request" />
          </p>
          <BlockedList blocked={blocked} />
        </>
      ),
    },
    ...(step?.transfers?.length
      ? [
          {
            id: "files",
            label: `Files (${step.transfers.length})`,
            panel: () => (
              <>
                <p className="tab-note muted">
                  Files uploaded or saved <Help term="transfer" topic="an uploaded or saved file" />
                </p>
                <TransferList transfers={step.transfers!} />
              </>
            ),
          },
        ]
      : []),
    ...(p.replay !== undefined
      ? [
          {
            id: "replay",
            label: "Replay",
            panel: () =>
              p.replay ? (
                <ReplayPanel title={p.title} replay={p.replay} columns={p.columns} index={p.frame} onIndex={p.onFrame} />
              ) : (
                <p className="muted">Replaying the recorded events…</p>
              ),
          },
        ]
      : []),
  ];
  return <Tabs label="Step details" tabs={tabs} current={p.tab} onChoose={p.onTab} />;
}
