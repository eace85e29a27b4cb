import type { Check, Step } from "../api/types";
import { Help } from "./Help";

/** What one running attempt's card shows. */
export interface LiveCard {
  slug: string;
  title: string;
  /** The steps it has taken so far. */
  steps: Step[];
  /** Its newest screencast frame, as a data: URL. */
  screen?: string;
  /** Why its page cannot be watched live. */
  unwatchable?: string;
  /** The gate at its latest check. */
  check?: Check;
}

/** Props of LiveCards. */
export interface LiveCardsProps {
  cards: LiveCard[];
  selected: string | null;
  onOpen(slug: string): void;
}

/** The gate's state at the latest check, in words. */
export function gateState(check?: Check): string {
  if (!check) return "gate not checked yet";
  if (check.gate.done) return "gate: done";
  const conds = check.gate.conditions ?? [];
  return `gate: not done (${conds.filter((c) => c.done).length} of ${conds.length} hold)`;
}

/**
 * A compact card for every attempt in flight: its title, the step it is on, its newest live
 * frame and the gate's state. Clicking a card opens that attempt's live trace.
 */
export function LiveCards({ cards, selected, onOpen }: LiveCardsProps) {
  if (cards.length === 0) return null;
  return (
    <section className="live-cards" aria-labelledby="live-heading">
      <h2 id="live-heading">
        Running now <Help term="live" topic="the live view" />
      </h2>
      <ul>
        {cards.map((c) => {
          const last = c.steps[c.steps.length - 1];
          return (
            <li key={c.slug}>
              <button type="button" className="live-card" data-testid={`live-${c.slug}`} aria-pressed={selected === c.slug} onClick={() => onOpen(c.slug)}>
                <span className="live-title">{c.title}</span>
                {c.screen ? (
                  <img className="live-screen" src={c.screen} alt={`${c.title}: the page now`} />
                ) : (
                  <span className="live-screen empty muted">{c.unwatchable ?? "waiting for the page…"}</span>
                )}
                <span className="live-step muted">{last ? `step ${c.steps.length}: ${last.action.description}` : "starting…"}</span>
                <span className={c.check?.gate.done ? "live-gate done" : "live-gate"}>{gateState(c.check)}</span>
              </button>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
