import type { Sample } from "../api/types";
import { Help } from "./Help";

/** Props of SampleView. */
export interface SampleViewProps {
  heading: string;
  sample: Sample;
}

/**
 * One page sample's facts: title, URL, dialog, the signed-in account, relevant text and
 * version the task reads, fields, form, notice, alert, table rows, role/name pairs and
 * unreadable areas.
 */
export function SampleView({ heading, sample }: SampleViewProps) {
  const rows = sample.rows ?? [];
  const unreadable = sample.unreadable ?? [];
  return (
    <section className="sample" aria-label={heading}>
      <h4>
        {heading} <span className="muted num">at {sample.at_ms} ms</span>
      </h4>
      <dl className="kv">
        {sample.title && <div><dt>Title</dt><dd>{sample.title}</dd></div>}
        <div><dt>URL</dt><dd>{sample.url}</dd></div>
        <div><dt>Dialog</dt><dd>{sample.dialog_open ? "open" : "closed"}</dd></div>
        {sample.principal !== undefined && <div><dt>Signed in as</dt><dd>{sample.principal || "nobody"}</dd></div>}
        {(sample.facts ?? []).map((f) => (
          <div key={`fact-${f.id}`}>
            <dt>{f.id}</dt>
            <dd>{f.value ? `“${f.value}”` : "not shown"}</dd>
          </div>
        ))}
        {sample.version && <div><dt>Version</dt><dd>{sample.version}</dd></div>}
        {(sample.fields ?? []).map((f) => (
          <div key={`${f.role}[${f.name}]`}>
            <dt>{f.role}[{f.name}]</dt>
            <dd>{f.value ? `“${f.value}”` : "empty"}{f.invalid ? " (invalid)" : ""}</dd>
          </div>
        ))}
        <div><dt>Form</dt><dd>{sample.form_present ? (sample.form_valid ? "valid" : "invalid") : "none"}</dd></div>
        <div><dt>Notice</dt><dd>{sample.notice || "none"}</dd></div>
        <div><dt>Alert</dt><dd>{sample.alert || "none"}</dd></div>
        <div>
          <dt>Table</dt>
          <dd>{rows.length === 0 ? "no rows" : rows.map((r, i) => <div key={i}>{r.join(" · ")}</div>)}</dd>
        </div>
        <div><dt>Pairs</dt><dd className="num">{(sample.pairs ?? []).length} role/name pairs</dd></div>
        <div>
          <dt>
            Unreadable <Help term="unreadable" topic="an unreadable area" />
          </dt>
          <dd>
            {unreadable.length === 0
              ? "none"
              : unreadable.map((r) => (
                  <div key={`${r.what}@${r.x},${r.y}`}>
                    {r.what} <span className="muted num">{r.w}×{r.h} at {r.x},{r.y}</span>
                  </div>
                ))}
          </dd>
        </div>
      </dl>
    </section>
  );
}
