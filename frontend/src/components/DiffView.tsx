import type { RoleName } from "../api/types";
import type { SampleDiff } from "../trace/diff";

const pair = (p: RoleName) => `${p.role}[${p.name}]`;
const shown = (v: string | null) => (v === null ? "absent" : v === "" ? "empty" : `“${v}”`);

/** What changed between a step's before and after samples, in words with + and − marks. */
export function DiffView({ diff }: { diff: SampleDiff }) {
  if (diff.empty) return <p className="muted">Nothing on the page changed.</p>;
  return (
    <ul className="diff" aria-label="Changes">
      {diff.dialog && <li>Dialog {diff.dialog.before ? "open" : "closed"} → {diff.dialog.after ? "open" : "closed"}</li>}
      {diff.fields.map((f) => (
        <li key={`f-${f.role}-${f.name}`} className="chg">
          ~ {f.role}[{f.name}]: {shown(f.before)} → {shown(f.after)}
        </li>
      ))}
      {diff.notice && <li className="chg">~ notice: {shown(diff.notice.before)} → {shown(diff.notice.after)}</li>}
      {diff.alert && <li className="chg">~ alert: {shown(diff.alert.before)} → {shown(diff.alert.after)}</li>}
      {diff.formValid && <li className="chg">~ form valid: {diff.formValid.before ? "yes" : "no"} → {diff.formValid.after ? "yes" : "no"}</li>}
      {diff.rowsAdded.map((r, i) => <li key={`ra-${i}`} className="add">+ row {r.join(" · ")}</li>)}
      {diff.rowsRemoved.map((r, i) => <li key={`rr-${i}`} className="del">− row {r.join(" · ")}</li>)}
      {diff.pairsAdded.map((p) => <li key={`pa-${pair(p)}`} className="add">+ {pair(p)}</li>)}
      {diff.pairsRemoved.map((p) => <li key={`pr-${pair(p)}`} className="del">− {pair(p)}</li>)}
    </ul>
  );
}
