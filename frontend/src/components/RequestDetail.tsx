import type { Body, Header, NetRequest } from "../api/types";
import { bytes, failed, outcome } from "../trace/network";

/** One request in full: what it was, how it ended, its timing and size, headers and bodies. */
export function RequestDetail({ request: r }: { request: NetRequest }) {
  return (
    <div className="request-detail" aria-label="Request detail" role="region">
      <dl className="kv">
        <div>
          <dt>Request</dt>
          <dd>
            <code>{r.method}</code> <code className="url">{r.url}</code>
          </dd>
        </div>
        <div>
          <dt>Outcome</dt>
          <dd className={failed(r) ? "failed" : undefined}>
            {outcome(r)}
            {failed(r) && <span className="tag failed-tag">failed</span>}
          </dd>
        </div>
        <div>
          <dt>Type</dt>
          <dd>{r.resource_type}</dd>
        </div>
        <div>
          <dt>Timing</dt>
          <dd className="num">
            started {r.start_ms} ms into the attempt, took {r.duration_ms} ms
          </dd>
        </div>
        <div>
          <dt>Response size</dt>
          <dd className="num">{bytes(r.size)}</dd>
        </div>
      </dl>
      <Headers heading="Request headers" headers={r.request_headers} />
      <Headers heading="Response headers" headers={r.response_headers} />
      <BodyView heading="Request body" body={r.request_body} />
      <BodyView heading="Response body" body={r.response_body} />
    </div>
  );
}

function Headers({ heading, headers }: { heading: string; headers?: Header[] }) {
  return (
    <>
      <h4>{heading}</h4>
      {headers?.length ? (
        <dl className="kv headers">
          {headers.map((h, k) => (
            <div key={k}>
              <dt>{h.name}</dt>
              <dd>{h.value}</dd>
            </div>
          ))}
        </dl>
      ) : (
        <p className="muted">None recorded.</p>
      )}
    </>
  );
}

function BodyView({ heading, body }: { heading: string; body?: Body }) {
  return (
    <>
      <h4>{heading}</h4>
      {body ? (
        <>
          {body.mime_type && <p className="muted">{body.mime_type}</p>}
          <pre className="body">{body.text}</pre>
          {body.truncated && <p className="muted">Only the start of the body was kept.</p>}
        </>
      ) : (
        <p className="muted">Not recorded: bodies are kept only with the Request bodies setting (or run --bodies).</p>
      )}
    </>
  );
}
