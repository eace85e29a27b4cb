import { memo, useState } from "react";
import type { RunSummary } from "../api/types";
import { cardDate } from "../history/cardDate";
import { isImported } from "../history/filter";
import { SignatureBadge, signatureLabel } from "./SignatureBadge";

/** Props of HistoryEntry. */
export interface HistoryEntryProps {
  run: RunSummary;
  /** Where the entry sits in its list, in px (the list draws only the entries in view). */
  top: number;
  current: boolean;
  onOpen(id: string): void;
  onDelete(id: string): void;
  /** Whether the run is picked for a comparison, and how to pick it. */
  picked: boolean;
  onPick(id: string, on: boolean): void;
  /** Shows the suite run the run is one task of. */
  onOpenSuite(id: string): void;
}

const when = (iso: string) => new Date(iso).toLocaleString();

/**
 * One stored run: its id, status, task and source, its completed and wrong attempts, and when
 * it started (for an import, when it was added; its tooltip has both, to the second). An
 * import that recorded its signature check shows what it found in place of the time, which
 * stays in the tooltip. A box picks it for a comparison; Delete asks once more before it
 * deletes. Memoised: stepping through a trace redraws no entry.
 */
export const HistoryEntry = memo(function HistoryEntry({ run: r, top, current, onOpen, onDelete, picked, onPick, onOpenSuite }: HistoryEntryProps) {
  const [confirming, setConfirming] = useState(false);
  const imported = isImported(r);
  return (
    <li className="history-entry" data-testid={`run-${r.id}`} style={{ top }}>
      <button type="button" className="open" aria-current={current ? "true" : undefined} onClick={() => onOpen(r.id)}
        title={`${r.id} · ${r.status} · ${r.task} · ${r.completed}/${r.attempts} completed · ${r.wrong} wrong · ${imported ? `started ${when(r.created)}, added ${when(r.added)}` : when(r.created)}${r.signature ? ` · ${signatureLabel(r.signature)}` : ""}`}>
        <code className="line text run-id">{r.id}</code>
        <span className="line">
          <span className={imported ? "tag" : "tag plain"}>{r.status}</span>
          <span className="run-task">
            {r.task} · {imported ? r.source : "run here"}
            {r.lab_host && r.lab_host !== "127.0.0.1" && ` · lab on ${r.lab_host}`}
          </span>
        </span>
        <span className="line muted num counts">
          {`${r.completed}/${r.attempts} `}
          <span className="word">completed</span>
          {` · ${r.wrong} wrong`}
        </span>
        {r.signature ? (
          <span className="line text num">
            <SignatureBadge signature={r.signature} />
          </span>
        ) : (
          <span className="line text muted num">{imported ? `added ${cardDate(r.added)}` : cardDate(r.created)}</span>
        )}
      </button>
      {r.suite_run && (
        <button type="button" className="link suite-link" title={`Show suite run ${r.suite_run}: every trial of its tasks`} onClick={() => onOpenSuite(r.suite_run!)}>
          suite {r.suite_run.slice(0, r.suite_run.lastIndexOf("@"))}
        </button>
      )}
      <label className="pick" title="Pick two runs to compare them attempt by attempt">
        <input type="checkbox" checked={picked} onChange={(e) => onPick(r.id, e.target.checked)} aria-label={`Compare run ${r.id}`} />
      </label>
      {confirming ? (
        <span className="confirm" role="group" aria-label={`Delete run ${r.id}?`}>
          <button type="button" className="danger" onClick={() => onDelete(r.id)}>Delete</button>
          <button type="button" onClick={() => setConfirming(false)}>Keep</button>
        </span>
      ) : (
        <button type="button" className="delete" aria-label={`Delete run ${r.id}`} title="Delete this run and its media" onClick={() => setConfirming(true)}>
          <span aria-hidden="true">✕</span>
        </button>
      )}
    </li>
  );
});
