/**
 * Times on a capture's own clock, never shown as 1970.
 *
 * A capture nothing aligned (no anchor, no wall-clock column, no start given) keeps its own clock:
 * perf's seconds since boot, or perf trace's since it started. The server stores those as
 * `1970-01-01 + capture time`, which must never reach a person as a date: everywhere a time is shown
 * or written into a URL, an instant before 2000 is shown as seconds on the capture clock instead
 * ("13061.862016 s"), which is also what the raw file prints, so a person can find the line.
 */
import type { EpochUs } from './selection';

/** 2000-01-01T00:00:00Z in µs: no wall-clock capture is older; capture-clock times are all below it. */
export const WALL_CLOCK_FLOOR_US = 946_684_800_000_000;

export const isCaptureClock = (us: EpochUs): boolean => us < WALL_CLOCK_FLOOR_US;

/** "13061.862016 s" (fraction digits from `stepUs`: 6 for µs steps, 3 for ms, none for seconds). */
export function captureClockText(us: EpochUs, stepUs = 1): string {
  const digits = stepUs >= 1e6 ? 0 : stepUs >= 1000 ? 3 : 6;
  return `${(us / 1e6).toFixed(digits)} s`;
}

const SECONDS_RE = /^(\d{1,12})(?:\.(\d{1,9}))?\s*s$/;

/** "13061.862016s" → µs on the capture clock; null when the text is not that shape. */
export function captureClockFromText(text: string): EpochUs | null {
  const m = SECONDS_RE.exec(text.trim());
  if (!m) return null;
  const us = Number(m[1]) * 1e6 + Number((m[2] ?? '').padEnd(6, '0').slice(0, 6));
  return isCaptureClock(us) ? us : null;
}

/** How an ISO time from the server reads: itself when wall-clock, capture-clock seconds when not. */
export function isoOrCaptureClock(iso: string): string | null {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms) || !isCaptureClock(ms * 1000)) return null;
  const fraction = /\.(\d+)/.exec(iso)?.[1] ?? '';
  const us = Math.floor(ms / 1000) * 1e6 + Number(fraction.padEnd(6, '0').slice(0, 6));
  return captureClockText(us);
}
