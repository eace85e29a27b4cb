import type { Disagreement } from "../api/types";

/** States plainly where a file's recorded verdicts disagree with what replay recomputed. */
export function DisagreementBanner({ items, titleOf }: { items: Disagreement[]; titleOf(slug: string): string }) {
  if (items.length === 0) return null;
  return (
    <div className="banner warn" role="status" data-testid="disagreements">
      <strong>
        The file's recorded verdicts disagree with the replay in {items.length} place{items.length === 1 ? "" : "s"}.
      </strong>{" "}
      The table shows the recomputed verdicts.
      <ul>
        {items.map((d) => (
          <li key={`${d.attempt}-${d.verdict}`}>
            {titleOf(d.attempt)}, {d.verdict.replace(/_/g, " ")}: the file says {d.recorded}, replay says {d.recomputed}.
          </li>
        ))}
      </ul>
    </div>
  );
}
