import { cloneElement, useId, useState, type ReactElement } from "react";
import type { BrowserStatus, ConfigOverride, EndpointHealth, ModelConfig, ModelTest, SelectorMode, Settings, WaitMode } from "../api/types";
import { BrowserChoice } from "../setup/BrowserChoice";
import { EndpointsSection } from "./EndpointsSection";
import { ModelsSection } from "./ModelsSection";
import { RetentionSection } from "./RetentionSection";
import { TrustSection } from "./TrustSection";

/** Props of SettingsPanel. */
export interface SettingsPanelProps {
  settings: Settings;
  onSave(s: Settings): void;
  /** Sends one tiny request to a model (Settings.TestModel). */
  onTestModel?(m: ModelConfig): Promise<ModelTest>;
  /** Puts a key into the OS keyring (Settings.StoreKey). */
  onStoreKey?(entry: string, key: string): Promise<void>;
  /** Checks the browser endpoints' health (Browsers.Health); absent hides the section. */
  onCheckEndpoints?(): Promise<EndpointHealth[]>;
  /** The browsers found (Browsers.Status); null while being read. */
  browsers?: BrowserStatus | null;
}

type NumberKey = "fixed_wait_ms" | "poll_ms" | "deadline_ms" | "budget";

const NUMBERS: { key: NumberKey; label: string; min: number; max: number }[] = [
  { key: "fixed_wait_ms", label: "Fixed wait (ms)", min: 0, max: 60000 },
  { key: "poll_ms", label: "Poll (ms)", min: 1, max: 10000 },
  { key: "deadline_ms", label: "Deadline (ms)", min: 1, max: 120000 },
  { key: "budget", label: "Action budget", min: 0, max: 1000 },
];

const OWN = "each attempt's own";

/** A labelled control; the "overrides" note describes the control without renaming it. */
function Row({ label, set, children }: { label: string; set: boolean; children: ReactElement<{ id?: string; "aria-describedby"?: string }> }) {
  const id = useId();
  return (
    <div className="setting">
      <label htmlFor={id}>{label}</label>
      {cloneElement(children, { id, "aria-describedby": set ? `${id}-note` : undefined })}
      {set && (
        <span id={`${id}-note`} className="muted">
          overrides every attempt
        </span>
      )}
    </div>
  );
}

/** Returns o with key set to value, or without key when value is undefined. */
function withField<K extends keyof ConfigOverride>(o: ConfigOverride, key: K, value: ConfigOverride[K] | undefined): ConfigOverride {
  const next = { ...o };
  if (value === undefined) delete next[key];
  else next[key] = value;
  return next;
}

/**
 * The numbers and switches runs use. A config field left empty keeps each attempt's own value
 * (the fixed-wait attempt still waits a fixed delay); a filled one overrides every attempt.
 */
export function SettingsPanel({ settings, onSave, onTestModel, onStoreKey, onCheckEndpoints, browsers = null }: SettingsPanelProps) {
  const [draft, setDraft] = useState<Settings>({ ...settings, config: settings.config ?? {} });
  const cfg = draft.config;
  const setField = <K extends keyof ConfigOverride>(key: K, value: ConfigOverride[K] | undefined) =>
    setDraft({ ...draft, config: withField(cfg, key, value) });

  return (
    <form
      className="panel settings"
      aria-label="Settings"
      onSubmit={(e) => {
        e.preventDefault();
        onSave(draft);
      }}
    >
      <div className="panel-head">
        <h2>Settings</h2>
        <span className="muted">Empty fields keep {OWN}; a value overrides every attempt.</span>
        <div>
          <button type="button" onClick={() => setDraft({ ...draft, config: {} })}>Clear overrides</button>
          <button type="submit" className="primary">Save</button>
        </div>
      </div>
      <div className="settings-grid">
        <Row label="Wait policy" set={cfg.wait !== undefined}>
          <select value={cfg.wait ?? ""} onChange={(e) => setField("wait", (e.target.value || undefined) as WaitMode | undefined)}>
            <option value="">{OWN}</option>
            <option value="condition">condition: poll the gate</option>
            <option value="fixed">fixed: sleep, check once</option>
          </select>
        </Row>
        <Row label="Selector policy" set={cfg.selectors !== undefined}>
          <select value={cfg.selectors ?? ""} onChange={(e) => setField("selectors", (e.target.value || undefined) as SelectorMode | undefined)}>
            <option value="">{OWN}</option>
            <option value="exact">exact name</option>
            <option value="alias">alias: one declared alternate</option>
          </select>
        </Row>
        {NUMBERS.map((n) => (
          <Row key={n.key} label={n.label} set={cfg[n.key] !== undefined}>
            <input
              type="number"
              min={n.min}
              max={n.max}
              placeholder={OWN}
              value={cfg[n.key] ?? ""}
              onChange={(e) => setField(n.key, e.target.value === "" ? undefined : e.target.valueAsNumber)}
            />
          </Row>
        ))}
        <Row label="Harness" set={false}>
          <select value={draft.harness ?? "on"} onChange={(e) => setDraft({ ...draft, harness: e.target.value as "on" | "off" })}>
            <option value="on">on: contracts, review, approval, reconciliation</option>
            <option value="off">off: the naive column, every action runs</option>
          </select>
        </Row>
        <Row label="Attempts at once" set={false}>
          <input
            type="number"
            min={1}
            max={32}
            value={draft.parallel || 1}
            onChange={(e) => setDraft({ ...draft, parallel: Number.isNaN(e.target.valueAsNumber) ? 1 : e.target.valueAsNumber })}
          />
        </Row>
        <Row label="Screenshots at" set={false}>
          <select value={String(draft.pixel_ratio || 1)} onChange={(e) => setDraft({ ...draft, pixel_ratio: Number(e.target.value) === 1 ? undefined : Number(e.target.value) })}>
            <option value="1">1× the page's pixels</option>
            <option value="2">2×: as sharp as a HiDPI screen (4 times the bytes)</option>
          </select>
        </Row>
        <BrowserChoice status={browsers} path={draft.browser_path} onChange={(browser_path) => setDraft({ ...draft, browser_path })} />
        <fieldset className="switches">
          <legend>Browser</legend>
          {(["headed", "video", "screenshots", "dom_snapshots", "trace", "bodies"] as const).map((k) => (
            <label key={k}>
              <input type="checkbox" checked={draft[k] ?? false} onChange={(e) => setDraft({ ...draft, [k]: e.target.checked })} />
              {
                {
                  headed: "Headed (show the window)",
                  video: "Record video",
                  screenshots: "Screenshots of every step, before and after",
                  dom_snapshots: "DOM snapshots beside them (the page's markup, scripts removed; 2 MiB each at most)",
                  trace: "Playwright trace",
                  bodies: "Request bodies (64 KiB each, secrets masked)",
                }[k]
              }
            </label>
          ))}
        </fieldset>
        <RetentionSection retention={draft.retention ?? {}} onChange={(retention) => setDraft({ ...draft, retention })} />
        <TrustSection trust={draft} onChange={(trust) => setDraft({ ...draft, ...trust })} />
      </div>
      {onCheckEndpoints && <EndpointsSection onCheck={onCheckEndpoints} />}
      <ModelsSection
        models={draft.models ?? []}
        planner={draft.planner ?? "script"}
        onTest={onTestModel}
        onStoreKey={onStoreKey}
        onChange={(models, planner) => setDraft({ ...draft, models, planner })}
      />
    </form>
  );
}
