// The whole steps of the attempt shown, read as they are looked at. A stored run opens with
// its steps summarised (History.Header); the chosen step is read whole with History.Steps, in a
// block of its neighbours, and once it is there the blocks on either side are read ahead, so
// stepping with ←/→ finds the next step already there. A few dozen blocks are kept; what a
// step costs never grows with the attempt. A live attempt's steps arrive whole and are used
// as they are.
import { useEffect, useMemo, useReducer, useRef } from "react";
import type { Step } from "../api/types";
import { errorText } from "../api/client";

/** How many steps one read asks for: the block the chosen step is in. */
export const BLOCK = 16;

/** How many blocks are kept; the one used longest ago goes first. */
export const KEPT_BLOCKS = 32;

/** Reads count steps whole from the one at position from. */
export type LoadSteps = (from: number, count: number) => Promise<Step[]>;

/** Where an attempt's whole steps come from. */
export type StepSource =
  /** Steps already held whole: a live attempt's. */
  | { held: readonly Step[] }
  /** A stored attempt's, read block by block; key names the attempt (run and slug). */
  | { key: string; count: number; load: LoadSteps };

/** What is known of one block: its steps, or why they could not be read. */
type Block = { steps: Step[] } | { error: string };

/**
 * The blocks read of one stored attempt. Every answer lands in the block it was asked for;
 * what is shown is always looked up by the chosen step, so an answer for a step chosen
 * before is never shown in its place, and one for an attempt no longer shown lands in a
 * cache nobody listens to.
 */
export class StepCache {
  private blocks = new Map<number, Block>();
  private pending = new Set<number>();

  /** Told of each block as it arrives, while someone listens. */
  private onBlock: ((block: number) => void) | null = null;

  /** count is how many steps the attempt has. */
  constructor(
    private load: LoadSteps,
    private count: number,
  ) {}

  /** Tells cb of each block as it arrives, until the function returned is called. */
  listen(cb: (block: number) => void): () => void {
    this.onBlock = cb;
    return () => {
      if (this.onBlock === cb) this.onBlock = null;
    };
  }

  /** The block step i is in. */
  static blockOf(i: number): number {
    return Math.floor(i / BLOCK);
  }

  /** Step i whole, once its block has been read. */
  get(i: number): Step | undefined {
    const b = this.blocks.get(StepCache.blockOf(i));
    return b && "steps" in b ? b.steps[i - StepCache.blockOf(i) * BLOCK] : undefined;
  }

  /** Why step i could not be read, if its block failed. */
  error(i: number): string | null {
    const b = this.blocks.get(StepCache.blockOf(i));
    return b && "error" in b ? b.error : null;
  }

  /**
   * Asks for step i's block unless it is there or on its way, and, once it is there, for the
   * blocks on either side. A failed block is asked for again.
   */
  want(i: number) {
    const b = StepCache.blockOf(i);
    const got = this.blocks.get(b);
    if (got && "steps" in got) {
      this.touch(b);
      this.fetch(b - 1);
      this.fetch(b + 1);
      return;
    }
    this.fetch(b, true);
  }

  /** Marks block b used now, for the eviction order. */
  private touch(b: number) {
    const got = this.blocks.get(b);
    if (!got) return;
    this.blocks.delete(b);
    this.blocks.set(b, got);
  }

  /** Reads block b if it is within the attempt and neither there nor on its way. */
  private fetch(b: number, retry = false) {
    const from = b * BLOCK;
    if (b < 0 || from >= this.count || this.pending.has(b)) return;
    const got = this.blocks.get(b);
    if (got && ("steps" in got || !retry)) return;
    this.pending.add(b);
    this.load(from, Math.min(BLOCK, this.count - from)).then(
      (steps) => this.land(b, { steps: steps ?? [] }),
      (err: unknown) => this.land(b, { error: errorText(err) }),
    );
  }

  /** Keeps an arrived block, drops the oldest past KEPT_BLOCKS, and says it arrived. */
  private land(b: number, block: Block) {
    this.pending.delete(b);
    this.blocks.delete(b);
    this.blocks.set(b, block);
    while (this.blocks.size > KEPT_BLOCKS) this.blocks.delete(this.blocks.keys().next().value!);
    this.onBlock?.(b);
  }
}

/** The chosen step whole, or why it could not be read; neither while it is on its way. */
export interface StepDetail {
  step: Step | undefined;
  error: string | null;
}

/**
 * Step i of source whole (see the module comment). The component re-renders when the block
 * of the step chosen now arrives, not for blocks read ahead.
 */
export function useStepDetails(source: StepSource | null, i: number): StepDetail {
  const [, arrived] = useReducer((n: number) => n + 1, 0);
  const chosen = useRef(i);
  chosen.current = i;
  const key = source && "key" in source ? source.key : null;
  const stored = source && "key" in source ? source : null;
  // One cache per attempt (and step count); the loader may be a new function on each render.
  const cache = useMemo(() => (stored ? new StepCache(stored.load, stored.count) : null), [key, stored?.count]);
  useEffect(() => cache?.listen((b) => b === StepCache.blockOf(chosen.current) && arrived()), [cache]);
  const step = cache?.get(i);
  // Ask for the chosen step, and once it is there for the blocks beside it.
  const here = step !== undefined;
  useEffect(() => cache?.want(i), [cache, i, here]);
  if (source && "held" in source) return { step: source.held[i], error: null };
  return { step, error: cache?.error(i) ?? null };
}
