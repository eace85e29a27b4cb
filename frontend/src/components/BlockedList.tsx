/** The requests the browser refused during a step because their origin is not the task's. */
export function BlockedList({ blocked }: { blocked: string[] }) {
  if (blocked.length === 0) return <p className="muted">No request was blocked during this step.</p>;
  return (
    <ul className="blocked">
      {blocked.map((u, k) => (
        <li key={k}><code>{u}</code></li>
      ))}
    </ul>
  );
}
