import { useEffect, useMemo, useState } from "react";
import type { Api } from "../api/client";
import { errorText } from "../api/client";
import type { AttemptHeader } from "../api/types";
import { useStepDetails, type StepSource } from "../state/stepDetails";
import { usePerAttempt } from "../state/usePerAttempt";
import { decisiveStep } from "../trace/summary";
import { columnsOf } from "../verdicts";
import { TraceViewer } from "./TraceViewer";

/** One side of a pair: a run's attempt, and what the comparison calls that run. */
export interface PairSide {
  run: string;
  /** "A (baseline)" or "B (candidate)". */
  label: string;
}

/** Props of PairView. */
export interface PairViewProps {
  api: Api;
  /** The attempt (or trial) both runs ran, and its title. */
  slug: string;
  title: string;
  /** The baseline first (shown on the left), then the candidate. */
  sides: [PairSide, PairSide];
  /** Back to the comparison the pair was opened from. */
  onBack(): void;
}

/**
 * One pair of a comparison: the same attempt (or trial) in the two runs, both traces side by
 * side, the baseline on the left and the candidate on the right, each opening on the step
 * that decided it, with its step list and its step's picture. ←/→ step both together.
 */
export function PairView({ api, slug, title, sides, onBack }: PairViewProps) {
  return (
    <section className="panel compare pair" aria-labelledby="pair-heading">
      <div className="panel-head">
        <h2 id="pair-heading">{title}: both runs</h2>
        <span className="muted">Baseline left, candidate right; ←/→ step both.</span>
        <button type="button" onClick={onBack}>
          <span aria-hidden="true">← </span>Back to the comparison
        </button>
      </div>
      <div className="pair-traces">
        {sides.map((s) => (
          <PairTrace key={s.label} api={api} side={s} slug={slug} />
        ))}
      </div>
    </section>
  );
}

/** One run's trace of the pair: its header read, then its steps as they are looked at. */
function PairTrace({ api, side, slug }: { api: Api; side: PairSide; slug: string }) {
  const [got, setGot] = useState<{ attempt?: AttemptHeader; error?: string } | null>(null);
  const [step, setStep] = useState(0);
  useEffect(() => {
    let live = true;
    setGot(null);
    api.history.header(side.run).then(
      (r) => {
        if (!live) return;
        const attempt = r.attempts?.find((a) => a.attempt === slug);
        if (attempt) setStep(decisiveStep(attempt));
        setGot(attempt ? { attempt } : { error: `run ${side.run} has no attempt ${slug}` });
      },
      (err) => live && setGot({ error: errorText(err) }),
    );
    return () => {
      live = false;
    };
  }, [api, side.run, slug]);
  const attempt = got?.attempt;
  const count = attempt?.step_count ?? 0;
  const load = api.history.steps;
  const source = useMemo<StepSource | null>(
    () => (attempt ? { key: `${side.run}/${slug}`, count, load: (from, n) => load(side.run, slug, from, n) } : null),
    [attempt, side.run, slug, count, load],
  );
  const detail = useStepDetails(source, step);
  // A long attempt's summaries come apart from its header.
  const summaries = usePerAttempt(side.run, attempt && !attempt.steps ? slug : null, api.history.summaries).value;
  const columns = useMemo(() => (attempt ? columnsOf(attempt.verdicts) : []), [attempt]);
  if (!attempt) {
    return (
      <section className="panel trace empty" aria-label={`Trace ${side.label}`}>
        <p className={got?.error ? "warn" : "muted"} role="status">
          {side.label}: {got?.error ? `could not open the trace: ${got.error}` : "opening the trace…"}
        </p>
      </section>
    );
  }
  return (
    <TraceViewer
      label={`Trace ${side.label}`}
      compact
      title={`${attempt.trial ? `${attempt.title} · trial ${attempt.trial}` : attempt.title} · ${side.label}, run ${side.run}`}
      plan={attempt.plan ?? []}
      columns={columns}
      steps={attempt.steps ?? summaries ?? null}
      count={count}
      detail={detail.step}
      detailError={detail.error}
      attempt={attempt}
      runId={side.run}
      current={Math.min(step, Math.max(count - 1, 0))}
      onStep={setStep}
    />
  );
}
