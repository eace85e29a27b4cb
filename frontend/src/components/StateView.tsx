/** One value as text: objects as "key: value" pairs, empty values as a dash. */
function text(v: unknown): string {
  if (v === null || v === undefined || v === "") return "—";
  if (Array.isArray(v)) return v.map(text).join("; ");
  if (typeof v === "object") return Object.entries(v).map(([k, x]) => `${k}: ${text(x)}`).join(", ");
  return String(v);
}

/** Renders a lab's state object as key/value text; list items go on lines of their own. */
export function StateView({ state, label }: { state: unknown; label: string }) {
  const entries = state && typeof state === "object" ? Object.entries(state) : [];
  if (entries.length === 0) return <p className="muted">Empty state.</p>;
  return (
    <dl className="kv" aria-label={label}>
      {entries.map(([k, v]) => (
        <div key={k}>
          <dt>{k}</dt>
          <dd>{Array.isArray(v) ? (v.length ? v.map((x, i) => <div key={i}>{text(x)}</div>) : "none") : text(v)}</dd>
        </div>
      ))}
    </dl>
  );
}
