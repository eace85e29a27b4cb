import type { ModelTurn, Step } from "../api/types";
import { claimText } from "../trace/claim";
import "./ModelTurns.css";

/** Props of ModelTurns. */
export interface ModelTurnsProps {
  step?: Step;
  /** The gate's call, once the attempt is judged: shown beside the model's claim on a verify step. */
  gateDone?: boolean;
  /** The turns that led to no step: the planning that ended the attempt (Attempt.model_turns). */
  ending?: ModelTurn[];
}

/**
 * The model planner's turns that led to one step: the step's stated reason, then per turn the
 * model, its tool calls and what became of each, tokens, latency, cost, retries, notes and
 * compaction. On a verify step, the model's claim beside the gate's call. After them, the
 * turns of the planning that ended the attempt without a step, when there were any.
 */
export function ModelTurns({ step, gateDone, ending = [] }: ModelTurnsProps) {
  const turns = step?.model_turns ?? [];
  return (
    <div className="model-turns">
      {step?.action.kind === "verify" && gateDone !== undefined && (
        <p className="model-claim" data-testid="model-claim">
          {claimText([step], gateDone)}
        </p>
      )}
      {step?.reason && (
        <p>
          <strong>Reason:</strong> {step.reason}
        </p>
      )}
      {turns.length > 0 && <TurnList turns={turns} testid="model-turn" />}
      {ending.length > 0 && (
        <section aria-label="The planning that ended the attempt">
          <h4>After the last step: the planning that ended the attempt</h4>
          <TurnList turns={ending} testid="model-ending" />
        </section>
      )}
    </div>
  );
}

/** Turns in order, each with its test id (prefix-index). */
function TurnList({ turns, testid }: { turns: ModelTurn[]; testid: string }) {
  return (
    <ol className="model-turn-list">
      {turns.map((t, k) => (
        <li key={k} data-testid={`${testid}-${k}`}>
          <TurnView turn={t} />
        </li>
      ))}
    </ol>
  );
}

/** One turn: what it cost, what the model wrote and called, and what else happened. */
function TurnView({ turn: t }: { turn: ModelTurn }) {
  return (
    <>
      <h4>
        <code>{t.model}</code>{" "}
        <span className="muted num">
          · {t.latency_ms} ms · tokens in {t.in_tokens} / out {t.out_tokens} · {t.cost_usd > 0 ? `$${t.cost_usd.toFixed(4)}` : "no price set"}
          {t.retries ? ` · ${t.retries} ${t.retries === 1 ? "retry" : "retries"}` : ""}
          {t.grounded_seq ? ` · saw observation ${t.grounded_seq}` : ""}
        </span>
      </h4>
      {t.text && <p className="model-text">{t.text}</p>}
      {(t.calls ?? []).length > 0 && (
        <ul className="model-calls">
          {(t.calls ?? []).map((c) => (
            <li key={c.id}>
              <code>
                {c.name}({c.arguments})
              </code>{" "}
              <span className={c.outcome === "proposed" ? "tag" : "tag plain"}>{c.outcome}</span>
              {c.result && <span className="muted"> {c.result}</span>}
            </li>
          ))}
        </ul>
      )}
      {(t.notes ?? []).map((n) => (
        <p key={n} className="muted">
          {n}
        </p>
      ))}
      {t.compaction && (
        <p className="muted">
          Compacted {t.compaction.messages} messages: {t.compaction.tokens_before} → {t.compaction.tokens_after} tokens. Summary: {t.compaction.summary}
        </p>
      )}
      {t.error && <p className="warn">{t.error}</p>}
    </>
  );
}
