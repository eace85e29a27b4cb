/**
 * Why a step's pane shows no screenshot, in one sentence: a lean attempt keeps one only where
 * something went wrong, anything else had screenshots turned off.
 */
export function noShotWhy(evidence?: string): string {
  return evidence === "lean"
    ? "No screenshot here: this attempt was recorded at lean evidence, which keeps one only where something went wrong (a failed or held step, the last look)."
    : "No screenshot was taken here (screenshots are off in Settings).";
}
