import type { AppEvent } from "../api/types";

/** One app event as a line of text: sequence, time, type and its data. */
function eventLine(e: AppEvent): string {
  const data = Object.entries(e.data ?? {}).map(([k, v]) => `${k}=${v}`);
  return [`#${e.seq}`, `${e.at_ms} ms`, e.type, ...data].join(" ");
}

/** The app's event log; those up to the chosen step's end are set apart from later ones. */
export function EventList({ events, until }: { events: AppEvent[]; until?: number }) {
  if (events.length === 0) return <p className="muted">The app logged no events (a task file's app keeps no event log).</p>;
  return (
    <ol className="events" aria-label="App events">
      {events.map((e) => (
        <li key={e.seq} className={until !== undefined && e.at_ms > until ? "later" : undefined}>
          {eventLine(e)}
        </li>
      ))}
    </ol>
  );
}
