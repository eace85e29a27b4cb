import type { Step } from "../api/types";
import { callLog, usedLocator } from "../trace/call";

/**
 * The step's call, as Playwright's viewer shows one: the action and its arguments, the locator
 * it acted through, its timing, the model turns that planned it (tokens, cost, time) when a
 * model did, and the harness's log of what happened to it.
 */
export function CallView({ step }: { step: Step }) {
  const a = step.action;
  const locator = usedLocator(step);
  const turns = step.model_turns ?? [];
  const tokensIn = turns.reduce((s, t) => s + t.in_tokens, 0);
  const tokensOut = turns.reduce((s, t) => s + t.out_tokens, 0);
  const cost = turns.reduce((s, t) => s + t.cost_usd, 0);
  const latency = turns.reduce((s, t) => s + t.latency_ms, 0);
  return (
    <div className="call">
      <dl className="kv">
        <div>
          <dt>Action</dt>
          <dd>
            <code>{a.kind}</code> {a.description}
          </dd>
        </div>
        {locator && (
          <div>
            <dt>Locator</dt>
            <dd>
              <code data-testid="call-locator">{locator}</code>
            </dd>
          </div>
        )}
        {a.value !== undefined && a.value !== "" && (
          <div>
            <dt>Value</dt>
            <dd>{a.secret ? <span className="muted">secret, masked</span> : <code>{a.value}</code>}</dd>
          </div>
        )}
        <div>
          <dt>Time</dt>
          <dd className="num">
            started {step.start_ms} ms into the attempt, took {step.duration_ms} ms
          </dd>
        </div>
        {turns.length > 0 && (
          <div>
            <dt>Model call</dt>
            <dd className="num">
              {turns.length === 1 ? turns[0].model : `${turns.length} turns (${turns[turns.length - 1].model})`}: {tokensIn} in / {tokensOut} out tokens
              {cost > 0 ? `, $${cost.toFixed(4)}` : ""}, {latency} ms; the Model tab has each request and reply
            </dd>
          </div>
        )}
      </dl>
      <h4>Log</h4>
      <ol className="call-log" aria-label="Log">
        {callLog(step).map((line, i) => (
          <li key={i}>{line}</li>
        ))}
      </ol>
    </div>
  );
}
