// The approval requests waiting for this window's user, and the way to answer them: kept
// from `approval` events, and re-read from Approvals.Pending when the window opens or its
// event stream reconnects (events sent meanwhile are lost).
import { useCallback, useEffect, useRef, useState } from "react";
import type { Api } from "../api/client";
import type { ApprovalAsk } from "../api/types";
import { foldApproval, notTaken } from "./approvals";
import { errorText } from "../api/client";


export function useApprovals(api: Api) {
  const [waiting, setWaiting] = useState<ApprovalAsk[]>([]);
  /** Why the last answer or re-read failed; cleared by the next request. */
  const [error, setError] = useState<string | null>(null);
  /** The answers this window gave to requests not yet closed, by id. */
  const given = useRef(new Map<string, "approve" | "deny">());

  useEffect(() => {
    const reread = () =>
      api.approvals.pending().then(
        (p) => setWaiting(p ?? []),
        (err) => setError(`Could not read the approval requests: ${errorText(err)}`),
      );
    reread();
    const offApproval = api.onApproval((a) => {
      if (a.open) setError(null);
      else {
        // a request closes with what the run took, which may not be what this window sent
        const notice = notTaken(given.current.get(a.id), a);
        given.current.delete(a.id);
        if (notice) setError(notice);
      }
      setWaiting((w) => foldApproval(w, a));
    });
    const offConnect = api.onConnect(reread);
    return () => {
      offApproval();
      offConnect();
    };
  }, [api]);

  /**
   * Answers request id; it leaves the queue at once, so it cannot be answered twice. When the
   * answer was not taken, the request's close says what was (unless it came first).
   */
  const answer = useCallback(
    (id: string, a: "approve" | "deny") => {
      setWaiting((w) => w.filter((x) => x.id !== id));
      given.current.set(id, a);
      api.approvals.answer(id, a).catch((err) => {
        if (given.current.has(id)) setError(`Your answer did not count: ${errorText(err)}`);
      });
    },
    [api],
  );

  return { waiting, error, answer };
}
