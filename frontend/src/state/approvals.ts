// The approval requests waiting for this window's user, folded from `approval` events. Pure.
import type { ApprovalAsk } from "../api/types";

/** The waiting requests after event a: an open one joins the end (once), a closed one leaves. */
export function foldApproval(waiting: ApprovalAsk[], a: ApprovalAsk): ApprovalAsk[] {
  if (!a.open) return waiting.filter((w) => w.id !== a.id);
  return waiting.some((w) => w.id === a.id) ? waiting : [...waiting, a];
}
