import type { Signature } from "../api/types";

/** The signature's status in words, as the history card and the trace header say it. */
export function signatureLabel(s: Signature): string {
  switch (s.status) {
    case "verified":
      return `signed by ${s.signer} (${s.fingerprint}), verified`;
    case "untrusted":
      return "signed by an untrusted key";
    case "mismatch":
      return "signature does not match";
  }
  return "unsigned";
}

/** Props of SignatureBadge. */
export interface SignatureBadgeProps {
  /** What the import found; absent for a run made here, which shows nothing. */
  signature?: Signature | null;
  /** Lists what was signed (each file and its SHA-256) and what does not match. */
  details?: boolean;
}

/**
 * An imported run's signature as it was checked at its import: its status in words, marked
 * as a warning unless verified, and, with details, the files the signature covers.
 */
export function SignatureBadge({ signature: s, details }: SignatureBadgeProps) {
  if (!s) return null;
  const label = signatureLabel(s);
  const tone = s.status === "verified" ? "signature verified" : s.status === "unsigned" ? "signature unsigned" : "signature warn";
  const title = [
    s.status === "untrusted" && `key ${s.fingerprint}, calling itself "${s.signer}": trust it with observatory keys trust`,
    s.reason,
  ]
    .filter(Boolean)
    .join("; ");
  if (!details) {
    return (
      <span className={tone} data-testid="signature" title={title || undefined}>
        {label}
      </span>
    );
  }
  return (
    <details className="signature-details">
      <summary>
        <span className={tone} data-testid="signature">
          {label}
        </span>
      </summary>
      {s.status === "untrusted" && <p className="muted">Key {s.fingerprint}, calling itself “{s.signer}”: trust it with <code>observatory keys trust FILE</code>.</p>}
      {s.reason && <p className="warn">{s.reason}</p>}
      {s.signed && s.signed.length > 0 ? (
        <>
          <p className="muted">What was signed (SHA-256):</p>
          <ul className="signed-files">
            {s.signed.map((f) => (
              <li key={f.name}>
                <code>{f.name}</code> <code className="muted" title={f.sha256}>{f.sha256.slice(0, 16)}…</code>
              </li>
            ))}
          </ul>
          <p className="muted">A signature proves that this key signed these bytes, not when the run happened nor that the machine that recorded it was honest.</p>
        </>
      ) : (
        s.status === "unsigned" && <p className="muted">Nothing in this run was signed.</p>
      )}
    </details>
  );
}
