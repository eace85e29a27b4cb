import { useState } from "react";
import type { ModelConfig, ModelTest } from "../api/types";
import { errorText } from "../api/client";

/** Props of ModelsSection. */
export interface ModelsSectionProps {
  models: ModelConfig[];
  planner: "script" | "model";
  onChange(models: ModelConfig[], planner: "script" | "model"): void;
  /** Sends one tiny request to a model (Settings.TestModel); absent hides the Test buttons. */
  onTest?(m: ModelConfig): Promise<ModelTest>;
  /** Puts a key into the OS keyring (Settings.StoreKey); absent hides the keyring's key fields. */
  onStoreKey?(entry: string, key: string): Promise<void>;
}

type Outcome = { kind: "testing" } | { kind: "ok"; text: string } | { kind: "error"; text: string };

const BLANK: ModelConfig = { provider: "openai", model: "", base_url: "", api_key_env: "OPENAI_API_KEY" };

/** A price field's value: a number of dollars, or undefined when empty or not a number. */
function price(v: string): number | undefined {
  const n = Number(v);
  return v.trim() === "" || !Number.isFinite(n) ? undefined : n;
}

/** One price per million tokens of a model: empty while not set. */
function PriceField({ label, value, onChange }: { label: string; value?: number; onChange: (v: number | undefined) => void }) {
  return (
    <label>
      {label} ($ per million tokens)
      <input
        type="number"
        min={0}
        step="any"
        value={value ?? ""}
        placeholder="not set"
        onChange={(e) => onChange(price(e.target.value))}
      />
    </label>
  );
}

/**
 * The models that plan runs, in the order they are tried, and who plans runs started here,
 * with each model's prices per million tokens (which a money budget counts). A model's key
 * comes from the environment variable it names or from an OS keyring entry; a key typed here
 * goes straight into the keyring (Store key) and is never kept in the settings or shown.
 * Test sends the row as it stands (saved or not) one tiny request.
 */
export function ModelsSection({ models, planner, onChange, onTest, onStoreKey }: ModelsSectionProps) {
  const [outcomes, setOutcomes] = useState<Record<number, Outcome | undefined>>({});
  const [keys, setKeys] = useState<Record<number, string>>({});
  const [stored, setStored] = useState<Record<number, Outcome | undefined>>({});
  const set = (i: number, m: Partial<ModelConfig>) => {
    onChange(models.map((x, k) => (k === i ? { ...x, ...m } : x)), planner);
    setOutcomes((o) => ({ ...o, [i]: undefined }));
  };
  const store = async (i: number) => {
    if (!onStoreKey) return;
    const entry = models[i].api_key_keyring ?? "";
    setStored((o) => ({ ...o, [i]: { kind: "testing" } }));
    try {
      await onStoreKey(entry, keys[i] ?? "");
      setKeys((k) => ({ ...k, [i]: "" }));
      setStored((o) => ({ ...o, [i]: { kind: "ok", text: `Stored in the OS keyring as ${entry}.` } }));
    } catch (e) {
      setStored((o) => ({ ...o, [i]: { kind: "error", text: errorText(e) } }));
    }
  };
  const test = async (i: number) => {
    if (!onTest) return;
    setOutcomes((o) => ({ ...o, [i]: { kind: "testing" } }));
    try {
      const r = await onTest(models[i]);
      setOutcomes((o) => ({ ...o, [i]: { kind: "ok", text: `${r.model} answered in ${r.latency_ms} ms: ${r.reply || "(no words)"}` } }));
    } catch (e) {
      setOutcomes((o) => ({ ...o, [i]: { kind: "error", text: errorText(e) } }));
    }
  };

  return (
    <fieldset className="models">
      <legend>Models</legend>
      <p className="muted">
        Keys are read from the environment variable you name (ending in _API_KEY or _TOKEN) or from the OS keyring; a key typed here goes only into
        the keyring, never into the settings, a run file or the history.
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
                Key of model {n} from
                <select
                  value={m.api_key_keyring !== undefined ? "keyring" : "env"}
                  onChange={(e) =>
                    set(i, e.target.value === "keyring" ? { api_key_env: undefined, api_key_keyring: m.provider } : { api_key_keyring: undefined, api_key_env: "" })
                  }
                >
                  <option value="env">an environment variable</option>
                  <option value="keyring">the OS keyring</option>
                </select>
              </label>
              {m.api_key_keyring === undefined ? (
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
              ) : (
                <>
                  <label>
                    Keyring entry of model {n}
                    <input type="text" value={m.api_key_keyring} autoComplete="off" spellCheck={false} onChange={(e) => set(i, { api_key_keyring: e.target.value.trim() })} />
                  </label>
                  {onStoreKey && (
                    <>
                      <label>
                        Key for model {n}
                        <input
                          type="password"
                          value={keys[i] ?? ""}
                          placeholder="stored in the keyring, never here"
                          autoComplete="off"
                          onChange={(e) => {
                            const v = e.target.value;
                            setKeys((k) => ({ ...k, [i]: v }));
                          }}
                        />
                      </label>
                      <button type="button" disabled={stored[i]?.kind === "testing" || !m.api_key_keyring || !(keys[i] ?? "").trim()} onClick={() => void store(i)}>
                        Store key of model {n}
                      </button>
                    </>
                  )}
                </>
              )}
              <PriceField
                label={`Input price of model ${n}`}
                value={m.price_in_per_mtok}
                onChange={(v) => set(i, { price_in_per_mtok: v })}
              />
              <PriceField
                label={`Output price of model ${n}`}
                value={m.price_out_per_mtok}
                onChange={(v) => set(i, { price_out_per_mtok: v })}
              />
              <div className="model-actions">
                {onTest && (
                  <button type="button" disabled={out?.kind === "testing" || !m.model.trim()} onClick={() => void test(i)}>
                    Test model {n}
                  </button>
                )}
                <button type="button" onClick={() => {
                  onChange(models.filter((_, k) => k !== i), planner);
                  setOutcomes({});
                  setKeys({});
                  setStored({});
                }}>
                  Remove model {n}
                </button>
              </div>
              <p className={out?.kind === "error" ? "warn model-test" : "muted model-test"} aria-live="polite" data-testid={`model-test-${n}`}>
                {out?.kind === "testing" ? "Testing…" : out ? out.text : ""}
              </p>
              {m.api_key_keyring !== undefined && (
                <p className={stored[i]?.kind === "error" ? "warn model-test" : "muted model-test"} aria-live="polite" data-testid={`model-key-${n}`}>
                  {stored[i]?.kind === "testing" ? "Storing…" : (stored[i]?.text ?? "")}
                </p>
              )}
            </li>
          );
        })}
      </ol>
      <button type="button" onClick={() => onChange([...models, { ...BLANK }], planner)}>Add model</button>
    </fieldset>
  );
}
