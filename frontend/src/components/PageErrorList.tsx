import type { PageError } from "../api/types";
import { Help } from "./Help";

/** A step's uncaught exceptions, each with its stack. */
export function PageErrorList({ errors, dropped = 0 }: { errors: PageError[]; dropped?: number }) {
  return (
    <div className="page-errors">
      <p className="tab-note muted">
        Exceptions the page threw and nothing caught <Help term="pageError" topic="an uncaught page error" />
      </p>
      {errors.length === 0 ? (
        <p className="muted">The page threw no uncaught error during this step.</p>
      ) : (
        <ol>
          {errors.map((e, k) => (
            <li key={k}>
              <strong>{e.message}</strong> <span className="muted num">at {e.at_ms} ms</span>
              {e.stack && <pre className="stack">{e.stack}</pre>}
            </li>
          ))}
        </ol>
      )}
      {dropped > 0 && (
        <p className="muted">
          {dropped} more {dropped === 1 ? "error" : "errors"} dropped <Help term="dropped" topic="dropped items" />
        </p>
      )}
    </div>
  );
}
