/**
 * How long people wait on the timeline: `timeline:render` from data arriving to the tracks drawn,
 * `timeline:brush` from the mouse-up of a brush to the new range drawn with its own data, and
 * `timeline:zoom` likewise for wheel, button and keyboard zooms (performance.measure entries).
 */
import { measure } from '../../shared/timing';

export type TimelineInteraction = 'render' | 'brush' | 'zoom';

export interface TimelineTiming {
  kind: TimelineInteraction;
  ms: number;
}

/**
 * One wait at a time, from the first input still unanswered: data arriving while a brush waits for
 * it is part of the brush, not a separate render. A brush or zoom replaces a render still waiting:
 * what the person then waits for is their own action.
 */
export class TimelineClock {
  private open: { kind: TimelineInteraction; start: number } | null = null;

  begin(kind: TimelineInteraction, start: number = performance.now()): void {
    if (this.open?.kind === 'render' && kind !== 'render') this.open = null;
    this.open ??= { kind, start };
  }

  get pending(): TimelineInteraction | null {
    return this.open?.kind ?? null;
  }

  cancel(): void {
    this.open = null;
  }

  settle(end: number = performance.now()): TimelineTiming | null {
    const open = this.open;
    if (!open) return null;
    this.open = null;
    return { kind: open.kind, ms: measure(`timeline:${open.kind}`, open.start, end) };
  }
}
