import { useRef } from "react";
import type { Attempt, Disagreement } from "../api/types";
import { rowCells, totals, type Cell, type Column } from "../verdicts";

/** One row: the attempt's slug and title, and its result once it has one. */
export interface AttemptRow {
  slug: string;
  title: string;
  attempt?: Attempt;
}

/** Props of AttemptsTable. */
export interface AttemptsTableProps {
  rows: AttemptRow[];
  /** The task's columns after the title (see columnsOf). */
  columns: Column[];
  selected: string | null;
  /** The slug running now, if any. */
  running: string | null;
  disagreements: Disagreement[];
  onRun(slug: string): void;
  onSelect(slug: string): void;
}

function CellView({ cell }: { cell: Cell }) {
  return (
    <td className={cell.wrong ? "wrong" : cell.unconfirmed ? "unconfirmed" : undefined} title={cell.evidence}>
      {cell.text}
      {cell.wrong && <span className="tag-wrong">wrong</span>}
      {cell.disagreement && <span className="tag-disagree">file said {cell.disagreement.recorded}</span>}
    </td>
  );
}

/**
 * The attempts and their verdicts, wrong ones marked. Rows act as buttons: click or Enter runs
 * the attempt; Up/Down select a row and open its trace.
 */
export function AttemptsTable({ rows, columns, selected, running, disagreements, onRun, onSelect }: AttemptsTableProps) {
  const body = useRef<HTMLTableSectionElement>(null);
  const done = rows.flatMap((r) => (r.attempt ? [r.attempt] : []));
  const sums = totals(done, columns);
  const focusable = selected ?? rows[0]?.slug;

  const move = (from: number, by: number) => {
    const to = Math.max(0, Math.min(rows.length - 1, from + by));
    onSelect(rows[to].slug);
    (body.current?.children[to] as HTMLElement | undefined)?.focus();
  };

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
        </tr>
      </thead>
      <tbody ref={body}>
        {rows.map((r, k) => {
          const cells = r.attempt ? rowCells(r.attempt, columns, disagreements) : null;
          return (
            <tr
              key={r.slug}
              aria-label={r.title}
              aria-current={r.slug === selected ? "true" : undefined}
              data-testid={`attempt-${r.slug}`}
              tabIndex={r.slug === focusable ? 0 : -1}
              className={r.slug === selected ? "selected" : undefined}
              onClick={() => onRun(r.slug)}
              onFocus={() => r.slug !== selected && onSelect(r.slug)}
              onKeyDown={(e) => {
                if (e.key === "Enter" || e.key === " ") {
                  e.preventDefault();
                  onRun(r.slug);
                } else if (e.key === "ArrowDown" || e.key === "ArrowUp") {
                  e.preventDefault();
                  move(k, e.key === "ArrowDown" ? 1 : -1);
                }
              }}
            >
              <th scope="row">{r.title}</th>
              {cells
                ? columns.map((c) => <CellView key={c.key} cell={cells[c.key]} />)
                : columns.map((c) => (
                    <td key={c.key} className="muted">
                      {c.kind === "terminal" && r.slug === running ? "running…" : ""}
                    </td>
                  ))}
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
          </tr>
        </tfoot>
      )}
    </table>
  );
}
