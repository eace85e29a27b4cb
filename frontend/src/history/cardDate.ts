/**
 * When a run started or came in, short enough for a history card at the default width in any
 * month: the time alone today, the day and the minute this year, the day alone before that.
 * The card's tooltip keeps the whole date to the second.
 */
export function cardDate(iso: string, now: Date = new Date(), locale?: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "unknown date";
  if (d.toDateString() === now.toDateString()) return d.toLocaleTimeString(locale, { timeStyle: "short" });
  if (d.getFullYear() === now.getFullYear()) {
    return d.toLocaleString(locale, { month: "numeric", day: "numeric", hour: "numeric", minute: "2-digit" });
  }
  return d.toLocaleDateString(locale, { dateStyle: "short" });
}
