import type { AppEvent } from "../api/types";
import { mediaURL } from "../media";
import type { LiveState } from "../state/live";
import { GateChecklist } from "./GateChecklist";

/** Props of LivePanel. */
export interface LivePanelProps {
  live: LiveState;
  /** The attempt to show: the running one, or a finished one of this run the user selected. */
  slug: string | null;
  /** Whether the settings ask for screenshots, which the live frame needs. */
  screenshots: boolean;
  /** The title of an attempt by slug. */
  titleOf(slug: string): string;
}

/** One app event as a line of text: sequence, type and its data. */
function eventLine(e: AppEvent): string {
  const data = Object.entries(e.data ?? {}).map(([k, v]) => `${k}=${v}`);
  return [`#${e.seq}`, e.type, ...data].join(" ");
}

/** How many of the latest app events the panel lists. */
const RECENT_EVENTS = 8;

/** The run in progress: the live frame, the app's latest events and the gate's checklist. */
export function LivePanel({ live, slug, screenshots, titleOf }: LivePanelProps) {
  const frame = slug ? live.frames[slug] : undefined;
  const finished = slug ? live.finished[slug] : undefined;
  const steps = finished?.steps ?? (slug ? live.steps[slug] : undefined) ?? [];
  const check = slug ? live.checks[slug] : undefined;
  const conditions = finished?.verdicts.gate.conditions ?? check?.gate.conditions ?? null;
  const events = (slug ? live.events[slug] : undefined) ?? [];

  return (
    <section className="panel live" aria-label="Live run">
      <div className="panel-head">
        <h2>{slug ? `Live: ${titleOf(slug)}` : "Live"}</h2>
        <span className="muted">
          {live.status === "running" ? (slug ? `${steps.length} step${steps.length === 1 ? "" : "s"} so far` : "starting…") : `run ${live.status}`}
        </span>
      </div>
      {live.error && <p className="banner error" role="alert">{live.error}</p>}
      <div className="live-cols">
        <div className="frame">
          {frame && live.runId ? (
            <img src={mediaURL(live.runId, frame)} alt={slug ? `Browser page of ${titleOf(slug)}` : "Browser page"} data-testid="live-frame" />
          ) : (
            <p className="muted">{screenshots ? "No screenshot yet." : "Screenshots are off; turn them on in Settings to watch the page."}</p>
          )}
        </div>
        <div>
          <h3>App events</h3>
          {events.length === 0 ? (
            <p className="muted">None yet.</p>
          ) : (
            <ul className="events" aria-label="App events">
              {events.slice(-RECENT_EVENTS).map((e) => (
                <li key={e.seq}>{eventLine(e)}</li>
              ))}
            </ul>
          )}
          {check?.settled && <p className="muted">Settled {check.settled}: {check.settled_reason}</p>}
        </div>
        <GateChecklist heading="Completion gate: done only when all hold" conditions={conditions} empty="Waiting for the first check." />
      </div>
    </section>
  );
}
