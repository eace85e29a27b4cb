// The approval requests waiting for this window's user, folded from `approval` events. Pure.
import type { ApprovalAsk } from "../api/types";

/** The waiting requests after event a: an open one joins the end (once), a closed one leaves. */
export function foldApproval(waiting: ApprovalAsk[], a: ApprovalAsk): ApprovalAsk[] {
  if (!a.open) return waiting.filter((w) => w.id !== a.id);
  return waiting.some((w) => w.id === a.id) ? waiting : [...waiting, a];
}

/**
 * What to tell the user when request a closes with another answer than the one they gave
 * (given; undefined when they gave none): another answer got there first (the run's terminal,
 * another window) or its time ran out, and the run took a's. Null when there is nothing to say.
 */
export function notTaken(given: "approve" | "deny" | undefined, a: ApprovalAsk): string | null {
  if (a.open || given === undefined || a.answer === given) return null;
  const took = a.answer === "approve" ? "approved" : a.answer === "deny" ? "denied" : "held: nothing was sent";
  return `Your answer (${given}) was not taken: it was answered elsewhere first, or its time ran out. “${a.request.action}” was ${took}.`;
}
