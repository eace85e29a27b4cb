import type { Disagreement, Verdicts } from "../api/types";
import { verdictName } from "../verdicts";

/** Props of DisagreementBanner. */
export interface DisagreementBannerProps {
  items: Disagreement[];
  titleOf(slug: string): string;
  /** The task's verdicts, whose labels name what each disagreement is about. */
  names: Verdicts;
}

/** States plainly where a file's recorded verdicts disagree with what replay recomputed. */
export function DisagreementBanner({ items, titleOf, names }: DisagreementBannerProps) {
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
            {titleOf(d.attempt)}, {verdictName(d.verdict, names)}: the file says {d.recorded}, replay says {d.recomputed}.
          </li>
        ))}
      </ul>
    </div>
  );
}
