import type { Api } from "../api/client";
import { useApprovals } from "../state/useApprovals";
import { ApprovalCard } from "./ApprovalCard";

/**
 * Asks the user the oldest waiting approval request of the runs started in this window, and
 * says so when an answer did not count (it came after the request closed).
 */
export function ApprovalPrompt({ api, titleOf }: { api: Api; titleOf(slug: string): string }) {
  const { waiting, error, answer } = useApprovals(api);
  const ask = waiting[0];
  return (
    <>
      {error && (
        <p role="alert" className="approval-error">
          {error}
        </p>
      )}
      {ask && <ApprovalCard ask={ask} title={titleOf(ask.slug)} queued={waiting.length - 1} onAnswer={answer} />}
    </>
  );
}
