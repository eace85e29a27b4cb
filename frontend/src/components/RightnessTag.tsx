import type { Cell } from "../verdicts";

/**
 * Whether a check's call was right, where that is known to be otherwise: "wrong" when it
 * differs from the ground truth, "unknown" when the ground truth could not be confirmed.
 */
export function RightnessTag({ cell }: { cell: Cell }) {
  if (cell.wrong) return <span className="tag-wrong">wrong</span>;
  if (cell.unknown) {
    return (
      <span className="tag" title="the ground truth could not be confirmed, so whether this check is right is unknown">
        unknown
      </span>
    );
  }
  return null;
}
