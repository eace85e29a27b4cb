import { gateWords, type Mark } from "../trace/timeline";
import { Media, MISSING } from "./Media";
import { noShotWhy } from "./noShot";

/** Props of StripThumb and StripPreview. */
export interface StripShotProps {
  runId: string;
  /** The step's screenshot in the run's media folder (its after, else its before); absent when it kept none. */
  shot?: string;
  /** The attempt's evidence level, to say why a step kept no screenshot. */
  evidence?: string;
}

/**
 * A step's thumbnail on the filmstrip, from the run's media folder. A step that kept no
 * screenshot (a lean attempt, screenshots off) and a file that cannot be loaded (a run file
 * carries no media) say so in a word, the reason in the tooltip, never a broken image.
 */
export function StripThumb({ runId, shot, evidence }: StripShotProps) {
  if (!shot) {
    return (
      <span className="thumb none" title={noShotWhy(evidence)} aria-hidden="true">
        no shot
      </span>
    );
  }
  const missing = (
    <span className="thumb none" title={`Screenshot: ${MISSING}`} aria-hidden="true">
      no file
    </span>
  );
  // alt="": the option's name is its label; the picture is shown larger on hover.
  return <Media runId={runId} path={shot} kind="image" label="" missing={missing} />;
}

/** Props of StripPreview. */
export interface StripPreviewProps extends StripShotProps {
  mark: Mark;
  /** How long the step lasted, in ms; absent for an event or a check. */
  duration_ms?: number;
  /** Where it goes and how wide it is, in px from the strip's left edge. */
  left: number;
  width: number;
}

/**
 * The larger picture over the filmstrip while a mark is hovered: the step's screenshot with
 * its name, when it started, how long it took and the gate there; an event's or a check's
 * words alone. Only shown, never focused: the same words are the mark's accessible name.
 */
export function StripPreview({ runId, shot, evidence, mark, duration_ms, left, width }: StripPreviewProps) {
  const step = mark.kind !== "event" && duration_ms !== undefined;
  return (
    <div className={`strip-preview${step ? " with-shot" : ""}`} style={{ left, width }} aria-hidden="true" data-testid="strip-preview">
      {step &&
        (shot ? (
          <Media runId={runId} path={shot} kind="image" label="Preview" />
        ) : (
          <p className="muted media-missing">{noShotWhy(evidence)}</p>
        ))}
      <p className="preview-caption">
        <strong>{mark.label}</strong>{" "}
        <span className="muted num">
          {mark.at_ms} ms{step ? ` · ${duration_ms} ms long` : ""} · {gateWords(mark.gate)}
        </span>
      </p>
    </div>
  );
}
