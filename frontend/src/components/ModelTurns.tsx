import type { ModelTurn } from "../api/types";

/** A model planner's turns that led to a step: the model, usage, latency and cost, what it wrote, its tool calls and what became of each. */
export function ModelTurns({ turns }: { turns: ModelTurn[] }) {
  return (
    <ol className="model-turns">
      {turns.map((t, k) => (
        <li key={k}>
          <p className="turn-head">
            <strong>{t.model}</strong>{" "}
            <span className="muted num">
              {t.messages} messages, ~{t.tokens} tokens sent · {t.in_tokens} in / {t.out_tokens} out · {t.latency_ms} ms
              {t.cost_usd > 0 && ` · $${t.cost_usd.toFixed(4)}`}
              {t.retries ? ` · ${t.retries} retried` : ""} · saw the page at {t.grounded_at_ms} ms
            </span>
          </p>
          {t.text && <pre>{t.text}</pre>}
          {(t.calls ?? []).map((c) => (
            <div key={c.id} className="model-call">
              <code>{c.name}</code> <span className={`tag plain outcome-${c.outcome}`}>{c.outcome}</span>
              <pre>{c.arguments}</pre>
              {c.result && <pre className="muted">{c.result}</pre>}
            </div>
          ))}
          {(t.notes ?? []).map((n, i) => (
            <p key={i} className="muted">{n}</p>
          ))}
          {t.compaction && (
            <p className="muted">
              Compacted {t.compaction.messages} messages ({t.compaction.tokens_before} → {t.compaction.tokens_after} tokens): {t.compaction.summary}
            </p>
          )}
          {t.error && <p className="warn">{t.error}</p>}
        </li>
      ))}
    </ol>
  );
}
