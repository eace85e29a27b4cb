// What changed on the page between two samples of one step. Pure: no DOM, no React.
import type { Field, RoleName, Sample } from "../api/types";

/** A text that changed, before and after. */
export interface Change<T> {
  before: T;
  after: T;
}

/** One form control whose value changed, or that appeared or disappeared. */
export interface FieldChange {
  role: string;
  name: string;
  /** null when the control was not on the page. */
  before: string | null;
  after: string | null;
}

/** Everything that differs between a step's before and after samples. */
export interface SampleDiff {
  pairsAdded: RoleName[];
  pairsRemoved: RoleName[];
  fields: FieldChange[];
  dialog: Change<boolean> | null;
  notice: Change<string> | null;
  alert: Change<string> | null;
  formValid: Change<boolean> | null;
  rowsAdded: string[][];
  rowsRemoved: string[][];
  /** The role-set Jaccard distance, computed here the way agent.JaccardDistance does. */
  distance: number;
  /** True when nothing at all changed. */
  empty: boolean;
}

const pairKey = (p: RoleName) => `${p.role}\u0000${p.name}`;
const fieldKey = (f: Field) => `${f.role}\u0000${f.name}`;

/** 1 - |A∩B| / |A∪B| over the sets of role/name pairs; 0 when both are empty. */
export function jaccardDistance(a: RoleName[] | null, b: RoleName[] | null): number {
  const inA = new Set((a ?? []).map(pairKey));
  const inB = new Set((b ?? []).map(pairKey));
  const union = new Set([...inA, ...inB]);
  if (union.size === 0) return 0;
  let both = 0;
  for (const k of inA) if (inB.has(k)) both++;
  return 1 - both / union.size;
}

/** Pairs in `from` missing from `other`, each once, in `from`'s order. */
function pairsMissing(from: RoleName[], other: RoleName[]): RoleName[] {
  const seen = new Set(other.map(pairKey));
  const out: RoleName[] = [];
  for (const p of from) {
    const k = pairKey(p);
    if (!seen.has(k)) {
      seen.add(k);
      out.push(p);
    }
  }
  return out;
}

/** Rows in `from` beyond their count in `other` (a multiset difference), in order. */
function rowsMissing(from: string[][], other: string[][]): string[][] {
  const left = new Map<string, number>();
  for (const r of other) {
    const k = JSON.stringify(r);
    left.set(k, (left.get(k) ?? 0) + 1);
  }
  return from.filter((r) => {
    const k = JSON.stringify(r);
    const n = left.get(k) ?? 0;
    if (n > 0) left.set(k, n - 1);
    return n === 0;
  });
}

function fieldChanges(before: Field[], after: Field[]): FieldChange[] {
  const was = new Map(before.map((f) => [fieldKey(f), f]));
  const now = new Map(after.map((f) => [fieldKey(f), f]));
  const out: FieldChange[] = [];
  for (const [k, f] of now) {
    const old = was.get(k);
    if (!old || old.value !== f.value) {
      out.push({ role: f.role, name: f.name, before: old ? old.value : null, after: f.value });
    }
  }
  for (const [k, f] of was) {
    if (!now.has(k)) out.push({ role: f.role, name: f.name, before: f.value, after: null });
  }
  return out;
}

function change<T>(before: T, after: T): Change<T> | null {
  return before === after ? null : { before, after };
}

/** Compares two samples of the page. */
export function diffSamples(before: Sample, after: Sample): SampleDiff {
  const bp = before.pairs ?? [];
  const ap = after.pairs ?? [];
  const br = before.rows ?? [];
  const ar = after.rows ?? [];
  const d = {
    pairsAdded: pairsMissing(ap, bp),
    pairsRemoved: pairsMissing(bp, ap),
    fields: fieldChanges(before.fields ?? [], after.fields ?? []),
    dialog: change(before.dialog_open, after.dialog_open),
    notice: change(before.notice, after.notice),
    alert: change(before.alert, after.alert),
    formValid: change(before.form_present && before.form_valid, after.form_present && after.form_valid),
    rowsAdded: rowsMissing(ar, br),
    rowsRemoved: rowsMissing(br, ar),
    distance: jaccardDistance(bp, ap),
  };
  const empty =
    !d.pairsAdded.length &&
    !d.pairsRemoved.length &&
    !d.fields.length &&
    !d.dialog &&
    !d.notice &&
    !d.alert &&
    !d.formValid &&
    !d.rowsAdded.length &&
    !d.rowsRemoved.length;
  return { ...d, empty };
}

/**
 * What changed, in one short line for under the screenshots: the dialog, the notice and the
 * alert by their new state, then counts of fields, rows and elements; the Diff tab lists them.
 */
export function diffSummary(d: SampleDiff): string {
  if (d.empty) return "Nothing on the page changed.";
  const parts: string[] = [];
  if (d.dialog) parts.push(`dialog ${d.dialog.after ? "opened" : "closed"}`);
  if (d.notice) parts.push(d.notice.after ? `notice “${d.notice.after}”` : "notice gone");
  if (d.alert) parts.push(d.alert.after ? `alert “${d.alert.after}”` : "alert gone");
  if (d.formValid) parts.push(`form ${d.formValid.after ? "valid" : "not valid"}`);
  const count = (n: number, one: string) => (n === 1 ? `1 ${one}` : `${n} ${one}s`);
  if (d.fields.length) parts.push(`${count(d.fields.length, "field")} changed`);
  if (d.rowsAdded.length) parts.push(`+${count(d.rowsAdded.length, "row")}`);
  if (d.rowsRemoved.length) parts.push(`−${count(d.rowsRemoved.length, "row")}`);
  if (d.pairsAdded.length || d.pairsRemoved.length) parts.push(`elements +${d.pairsAdded.length} −${d.pairsRemoved.length}`);
  return `Changed: ${parts.join(" · ")}.`;
}
