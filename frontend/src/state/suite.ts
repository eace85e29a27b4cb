// A suite run's grid kept current from the run events the window already receives, rather
// than read whole again and again. Pure: foldSuite returns a new report, so it is testable
// without a backend. The estimates (rates, intervals, pass@k) are computed in Go only: a
// report is read again (Runs.Suite) when one of the suite's runs starts or ends, and, slowly,
// as a fallback while it goes.
import type { Attempt, Progress, SuiteCell, SuiteReport, SuiteRow } from "../api/types";
import { wrongChecks } from "../verdicts";

/** What an event does to a suite run's report: the report with it folded in, and whether it
 * must be read again (a run started or ended: new rows, final rates). */
export interface SuiteFold {
  report: SuiteReport;
  reread: boolean;
}

/**
 * report with progress event p folded in: an attempt that ended in one of the suite's runs
 * fills its trial's cell (or adds it, and its row, when the report was read before the trial
 * started). A run starting, or one of the suite's runs ending, asks for the report again;
 * anything else leaves it as it is.
 */
export function foldSuite(report: SuiteReport, p: Progress): SuiteFold {
  const run = report.runs.find((r) => r.id === p.run_id);
  switch (p.kind) {
    case "run-started":
      return { report, reread: !run };
    case "run-finished":
      return { report, reread: !!run };
    case "attempt-finished":
      return { report: run && p.attempt ? withTrial(report, run.task, p.run_id, p.attempt) : report, reread: false };
  }
  return { report, reread: false };
}

/** The attempt a trial slug is of: "saves-normally.t3" with trial 3 is "saves-normally" (as agent.BaseSlug). */
export function baseSlug(slug: string, trial: number | undefined): string {
  const suffix = `.t${trial}`;
  return trial && trial > 0 && slug.endsWith(suffix) ? slug.slice(0, -suffix.length) : slug;
}

/** report with a's trial, of task's run runId, in its row: its cell replaced, or added in trial order. */
function withTrial(report: SuiteReport, task: string, runId: string, a: Attempt): SuiteReport {
  const attempt = baseSlug(a.attempt, a.trial);
  const key = `${task}/${attempt}`;
  const wrong = wrongChecks(a.verdicts);
  const cell: SuiteCell = { run: runId, slug: a.attempt, trial: a.trial ?? 0, terminal: a.terminal, ...(wrong.length ? { wrong } : {}) };
  const rows = [...report.rows];
  const at = rows.findIndex((r) => r.key === key);
  if (at < 0) {
    const lastOfTask = rows.map((r) => r.task).lastIndexOf(task);
    const row: SuiteRow = { key, task, attempt, title: a.title, cells: [cell] };
    rows.splice(lastOfTask < 0 ? rows.length : lastOfTask + 1, 0, row);
  } else {
    const others = rows[at].cells.filter((c) => !(c.run === runId && c.slug === a.attempt));
    rows[at] = { ...rows[at], cells: [...others, cell].sort((x, y) => x.trial - y.trial) };
  }
  return { ...report, rows, trials: Math.max(report.trials, ...rows.map((r) => r.cells.length)) };
}
