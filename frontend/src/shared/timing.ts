/**
 * User-timing measures (`performance.measure`) for what people wait on. DevTools shows them, and
 * tests or benchmark scripts read them with `performance.getEntriesByName('flame:zoom')`.
 */

/** Record `name` from `start` to `end` (performance.now() times) and return the duration in ms. */
export function measure(name: string, start: number, end: number = performance.now()): number {
  const duration = end - start;
  try {
    performance.measure(name, { start, end });
  } catch {
    // Not every environment (jsdom) implements measure with options; the duration is still returned.
  }
  return duration;
}

/** End time of the latest measure called `name`, if any. */
export function lastMeasureEnd(name: string): number | null {
  const entries = typeof performance.getEntriesByName === 'function' ? performance.getEntriesByName(name, 'measure') : [];
  const last = entries.at(-1);
  return last ? last.startTime + last.duration : null;
}

/**
 * Call `fn` with the time once the next frame has been painted: after the next animation frame
 * (where d3's zero-length transitions finish) and the rendering that follows it. Returns a cancel.
 */
export function afterNextPaint(fn: (at: number) => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const raf = requestAnimationFrame(() => {
    timer = setTimeout(() => fn(performance.now()), 0);
  });
  return () => {
    cancelAnimationFrame(raf);
    if (timer !== undefined) clearTimeout(timer);
  };
}

export type Interaction = 'render' | 'zoom' | 'search';

export interface InteractionTime {
  kind: Interaction;
  ms: number;
}

/**
 * One user-visible wait at a time: begun by an action (a click, a search, data arriving) and ended
 * when the view has settled. An action while one is open joins it, so each duration runs from the
 * first input still unanswered to the view that answers it (a search committed just after a zoom
 * click is part of the zoom's wait).
 */
export class InteractionClock {
  private open: { kind: Interaction; start: number } | null = null;
  private lastEnd = -Infinity;

  /** Measures are named `<prefix>:<kind>`, e.g. `flame:zoom`. */
  constructor(private readonly prefix: string) {}

  begin(kind: Interaction, start: number = performance.now()): void {
    this.open ??= { kind, start };
  }

  /** Drop the open interaction (nothing will be drawn for it). */
  cancel(): void {
    this.open = null;
  }

  get pending(): Interaction | null {
    return this.open?.kind ?? null;
  }

  /** When the last interaction ended (-Infinity before the first). */
  get settledAt(): number {
    return this.lastEnd;
  }

  /** End the open interaction at `end`, recording `<prefix>:<kind>`; null if none was open. */
  settle(end: number = performance.now()): InteractionTime | null {
    const open = this.open;
    if (!open) return null;
    this.open = null;
    this.lastEnd = end;
    return { kind: open.kind, ms: measure(`${this.prefix}:${open.kind}`, open.start, end) };
  }
}
