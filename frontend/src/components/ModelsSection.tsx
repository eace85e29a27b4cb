import { useState } from "react";
import type { ModelConfig, ModelTest } from "../api/types";

/** Props of ModelsSection. */
export interface ModelsSectionProps {
  models: ModelConfig[];
  planner: "script" | "model";
  onChange(models: ModelConfig[], planner: "script" | "model"): void;
  /** Sends one tiny request to a model (Settings.TestModel); absent hides the Test buttons. */
  onTest?(m: ModelConfig): Promise<ModelTest>;
}

type Outcome = { kind: "testing" } | { kind: "ok"; text: string } | { kind: "error"; text: string };

const BLANK: ModelConfig = { provider: "openai", model: "", base_url: "", api_key_env: "OPENAI_API_KEY" };

/** The error's own words, whatever the transport threw. */
function why(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/**
 * The models that plan runs, in the order they are tried, and who plans runs started here.
 * Each model names the environment variable holding its key; the key itself never reaches
 * the window. Test sends the row as it stands (saved or not) one tiny request.
 */
export function ModelsSection({ models, planner, onChange, onTest }: ModelsSectionProps) {
  const [outcomes, setOutcomes] = useState<Record<number, Outcome | undefined>>({});
  const set = (i: number, m: Partial<ModelConfig>) => {
    onChange(models.map((x, k) => (k === i ? { ...x, ...m } : x)), planner);
    setOutcomes((o) => ({ ...o, [i]: undefined }));
  };
  const test = async (i: number) => {
    if (!onTest) return;
    setOutcomes((o) => ({ ...o, [i]: { kind: "testing" } }));
    try {
      const r = await onTest(models[i]);
      setOutcomes((o) => ({ ...o, [i]: { kind: "ok", text: `${r.model} answered in ${r.latency_ms} ms: ${r.reply || "(no words)"}` } }));
    } catch (e) {
      setOutcomes((o) => ({ ...o, [i]: { kind: "error", text: why(e) } }));
    }
  };

  return (
    <fieldset className="models">
      <legend>Models</legend>
      <p className="muted">
        Keys are read from the environment variable you name (ending in _API_KEY or _TOKEN), never stored or shown here.
      </p>
      <div className="setting">
        <label htmlFor="planner-choice">Runs started here are planned by</label>
        <select id="planner-choice" value={planner} onChange={(e) => onChange(models, e.target.value as "script" | "model")}>
          <option value="script">the task's script (a task without one goes to a model)</option>
          <option value="model">a model, tried in the order below</option>
        </select>
      </div>
      {models.length === 0 && <p className="muted">No model configured.</p>}
      <ol className="model-list">
        {models.map((m, i) => {
          const n = i + 1;
          const out = outcomes[i];
          return (
            <li key={i} className="model-row">
              <label>
                Provider of model {n}
                <select value={m.provider} onChange={(e) => set(i, { provider: e.target.value as ModelConfig["provider"] })}>
                  <option value="openai">OpenAI or compatible</option>
                  <option value="anthropic">Anthropic</option>
                </select>
              </label>
              <label>
                Model {n}
                <input type="text" value={m.model} placeholder="gpt-4.1-mini" onChange={(e) => set(i, { model: e.target.value })} />
              </label>
              <label>
                Base URL of model {n}
                <input type="url" value={m.base_url ?? ""} placeholder="the provider's own" onChange={(e) => set(i, { base_url: e.target.value })} />
              </label>
              <label>
                Key variable of model {n}
                <input
                  type="text"
                  value={m.api_key_env ?? ""}
                  placeholder="none"
                  autoComplete="off"
                  spellCheck={false}
                  onChange={(e) => set(i, { api_key_env: e.target.value.trim() })}
                />
              </label>
              <div className="model-actions">
                {onTest && (
                  <button type="button" disabled={out?.kind === "testing" || !m.model.trim()} onClick={() => void test(i)}>
                    Test model {n}
                  </button>
                )}
                <button type="button" onClick={() => {
                  onChange(models.filter((_, k) => k !== i), planner);
                  setOutcomes({});
                }}>
                  Remove model {n}
                </button>
              </div>
              <p className={out?.kind === "error" ? "warn model-test" : "muted model-test"} aria-live="polite" data-testid={`model-test-${n}`}>
                {out?.kind === "testing" ? "Testing…" : out ? out.text : ""}
              </p>
            </li>
          );
        })}
      </ol>
      <button type="button" onClick={() => onChange([...models, { ...BLANK }], planner)}>Add model</button>
    </fieldset>
  );
}
