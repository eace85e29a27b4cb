import { useEffect, useRef } from "react";
import type { AttemptHeader, Disagreement } from "../api/types";
import { modified, ownsKeys } from "../keys";
import { callOf, rowCells, totals, unmet, type Cell, type Column } from "../verdicts";
import { RightnessTag } from "./RightnessTag";

/** One row: the attempt's slug and title, and its result once it has one. */
export interface AttemptRow {
  slug: string;
  title: string;
  attempt?: AttemptHeader;
}

/** Props of AttemptsTable. */
export interface AttemptsTableProps {
  rows: AttemptRow[];
  /** The task's columns after the title (see columnsOf). */
  columns: Column[];
  selected: string | null;
  /** The slug running now, if any. */
  running: string | null;
  /** True while any run goes: no attempt can be started. */
  busy: boolean;
  disagreements: Disagreement[];
  onRun(slug: string): void;
  onSelect(slug: string): void;
}

function CellView({ cell }: { cell: Cell }) {
  return (
    <td className={cell.wrong ? "wrong" : cell.unconfirmed ? "unconfirmed" : undefined} title={cell.evidence}>
      {cell.text}
      <RightnessTag cell={cell} />
      {cell.disagreement && <span className="tag-disagree">file said {cell.disagreement.recorded}</span>}
    </td>
  );
}

/** Why an attempt ended as it did: its terminal reason and the first gate condition that failed. */
function WhyCell({ attempt }: { attempt: AttemptHeader }) {
  const first = unmet(attempt.verdicts.gate)[0];
  return (
    <td className="why" title={attempt.reason}>
      <span className="reason">{attempt.reason}</span>
      {first && (
        <span className="first-unmet">
          {callOf(first) === "could not confirm" ? "could not confirm" : "unmet"}: {first.label}
        </span>
      )}
    </td>
  );
}

/**
 * The attempts and their verdicts, wrong ones marked. Clicking a row or Up/Down anywhere in
 * the window (outside form controls) selects a row and shows its trace, focus moving with the
 * selection; only the row's ▶ button runs it.
 */
export function AttemptsTable({ rows, columns, selected, running, busy, disagreements, onRun, onSelect }: AttemptsTableProps) {
  const body = useRef<HTMLTableSectionElement>(null);
  const done = rows.flatMap((r) => (r.attempt ? [r.attempt] : []));
  const sums = totals(done, columns);
  const focusable = selected ?? rows[0]?.slug;

  const at = rows.findIndex((r) => r.slug === selected);
  const rowAt = (k: number) => body.current?.children[k] as HTMLElement | undefined;

  // Up/Down outside the table move the selection too, and bring the focus along.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (rows.length === 0 || ownsKeys(e.target) || modified(e)) return;
      if (e.key !== "ArrowDown" && e.key !== "ArrowUp") return;
      e.preventDefault();
      const k = Math.max(0, Math.min(rows.length - 1, at < 0 ? 0 : at + (e.key === "ArrowDown" ? 1 : -1)));
      onSelect(rows[k].slug);
      rowAt(k)?.focus();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [rows, at, onSelect]);

  // The selected row scrolls into view however it was chosen (a deep link, an import, a live
  // run moving on), and when the focus is in the table it follows the selection.
  useEffect(() => {
    if (at < 0) return;
    rowAt(at)?.scrollIntoView?.({ block: "nearest" });
    if (body.current?.contains(document.activeElement) && document.activeElement?.tagName === "TR") rowAt(at)?.focus();
  }, [at]);

  return (
    <table className="attempts" aria-label="Attempts">
      <thead>
        <tr>
          <th scope="col">Attempt</th>
          {columns.map((c) => (
            <th scope="col" key={c.key} title={c.hint}>
              {c.label}
            </th>
          ))}
          <th scope="col" className="why-col">Why</th>
          <th scope="col" className="run-col"><span className="sr-only">Run</span></th>
        </tr>
      </thead>
      <tbody ref={body}>
        {rows.map((r) => {
          const cells = r.attempt ? rowCells(r.attempt, columns, disagreements) : null;
          const isSelected = r.slug === selected;
          return (
            <tr
              key={r.slug}
              aria-label={r.title}
              aria-current={isSelected ? "true" : undefined}
              data-testid={`attempt-${r.slug}`}
              tabIndex={r.slug === focusable ? 0 : -1}
              className={isSelected ? "selected" : undefined}
              onClick={() => onSelect(r.slug)}
              onFocus={(e) => e.target === e.currentTarget && !isSelected && onSelect(r.slug)}
            >
              <th scope="row">{r.title}</th>
              {cells
                ? columns.map((c) => <CellView key={c.key} cell={cells[c.key]} />)
                : columns.map((c) => (
                    <td key={c.key} className="muted">
                      {c.kind === "terminal" && r.slug === running ? "running…" : ""}
                    </td>
                  ))}
              {r.attempt ? <WhyCell attempt={r.attempt} /> : <td className="why" />}
              <td className="run-cell">
                <button
                  type="button"
                  className="run"
                  aria-label={`Run ${r.title}`}
                  title={`Run ${r.title} again`}
                  tabIndex={isSelected ? 0 : -1}
                  disabled={busy}
                  onClick={(e) => {
                    e.stopPropagation();
                    onSelect(r.slug);
                    onRun(r.slug);
                  }}
                >
                  <span aria-hidden="true">▶</span>
                </button>
              </td>
            </tr>
          );
        })}
      </tbody>
      {done.length > 0 && (
        <tfoot>
          <tr aria-label="Totals">
            <th scope="row">Totals</th>
            {columns.map((c) => (
              <td key={c.key} className="num">
                {sums[c.key]}
              </td>
            ))}
            <td colSpan={2} />
          </tr>
        </tfoot>
      )}
    </table>
  );
}
