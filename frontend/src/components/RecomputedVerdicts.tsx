import type { Replay } from "../api/types";
import { judgedCells, type Column } from "../verdicts";
import { RightnessTag } from "./RightnessTag";

/** The verdicts replay recomputed beside those the file recorded, differences marked. */
export function RecomputedVerdicts({ replay, columns }: { replay: Replay; columns: Column[] }) {
  const now = judgedCells(replay.recomputed, columns);
  const then = judgedCells(replay.recorded, columns);
  return (
    <section aria-label="Recomputed verdicts">
      <h3>Recomputed verdicts</h3>
      <table className="mini">
        <thead>
          <tr><th scope="col">Verdict</th><th scope="col">Recomputed</th><th scope="col">File said</th></tr>
        </thead>
        <tbody>
          {columns.filter((c) => now[c.key]).map(({ key, label }) => {
            const differs = now[key].text !== then[key].text;
            return (
              <tr key={key} className={differs ? "wrong" : undefined}>
                <th scope="row">{label}</th>
                <td>
                  {now[key].text}
                  <RightnessTag cell={now[key]} />
                </td>
                <td>
                  {then[key].text}
                  {differs && <span className="tag-disagree">disagrees</span>}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}
