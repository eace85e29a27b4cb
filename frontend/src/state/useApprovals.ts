// The approval requests waiting for this window's user, and the way to answer them: kept
// from `approval` events, and re-read from Approvals.Pending when the window opens or its
// event stream reconnects (events sent meanwhile are lost).
import { useCallback, useEffect, useState } from "react";
import type { Api } from "../api/client";
import type { ApprovalAsk } from "../api/types";
import { foldApproval } from "./approvals";
import { errorText } from "../api/client";


export function useApprovals(api: Api) {
  const [waiting, setWaiting] = useState<ApprovalAsk[]>([]);
  /** Why the last answer or re-read failed; cleared by the next request. */
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const reread = () =>
      api.approvals.pending().then(
        (p) => setWaiting(p ?? []),
        (err) => setError(`Could not read the approval requests: ${errorText(err)}`),
      );
    reread();
    const offApproval = api.onApproval((a) => {
      if (a.open) setError(null);
      setWaiting((w) => foldApproval(w, a));
    });
    const offConnect = api.onConnect(reread);
    return () => {
      offApproval();
      offConnect();
    };
  }, [api]);

  /** Answers request id; it leaves the queue at once, so it cannot be answered twice. */
  const answer = useCallback(
    (id: string, a: "approve" | "deny") => {
      setWaiting((w) => w.filter((x) => x.id !== id));
      api.approvals.answer(id, a).catch((err) => setError(`Your answer did not count: ${errorText(err)}`));
    },
    [api],
  );

  return { waiting, error, answer };
}
