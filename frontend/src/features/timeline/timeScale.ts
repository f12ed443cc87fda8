/**
 * The time axis in epoch microseconds (pure). A Date keeps milliseconds only, and the timeline zooms to
 * tens of microseconds, so positions are computed on µs numbers (a double holds them exactly); d3's UTC
 * scale still picks the ticks whenever the span is wide enough for whole milliseconds.
 */
import { captureClockText, isCaptureClock } from '../../shared/captureClock';
import * as d3 from 'd3';
import type { EpochUs } from '../../shared/selection';

export interface TimeRange {
  fromUs: EpochUs;
  toUs: EpochUs;
}

export const MIN_SPAN_US = 10;
/** Wider than any incident worth reading on one screen (a year). */
export const MAX_SPAN_US = 366 * 86_400e6;

export interface Scale {
  x: (us: number) => number;
  us: (px: number) => number;
  pxPerUs: number;
}

export function scaleFor(range: TimeRange, widthPx: number): Scale {
  const span = Math.max(range.toUs - range.fromUs, 1);
  const pxPerUs = widthPx / span;
  return {
    x: (us) => (us - range.fromUs) * pxPerUs,
    us: (px) => range.fromUs + px / pxPerUs,
    pxPerUs,
  };
}

function clampSpan(span: number): number {
  return Math.min(MAX_SPAN_US, Math.max(MIN_SPAN_US, span));
}

/** Zoom by `factor` (< 1 zooms in) keeping `centerUs` where it is on screen; whole microseconds. */
export function zoomAround(range: TimeRange, centerUs: number, factor: number): TimeRange {
  const span = range.toUs - range.fromUs;
  const next = clampSpan(span * factor);
  const at = span > 0 ? (centerUs - range.fromUs) / span : 0.5;
  const fromUs = Math.round(centerUs - at * next);
  return { fromUs, toUs: fromUs + Math.round(next) };
}

/** Move by `fraction` of the span (negative = earlier). */
export function pan(range: TimeRange, fraction: number): TimeRange {
  const shift = Math.round((range.toUs - range.fromUs) * fraction);
  return { fromUs: range.fromUs + shift, toUs: range.toUs + shift };
}

/** A brushed pixel interval as a range, in order, at least MIN_SPAN_US wide. */
export function brushRange(scale: Scale, px0: number, px1: number): TimeRange {
  const a = Math.round(scale.us(Math.min(px0, px1)));
  const b = Math.round(scale.us(Math.max(px0, px1)));
  return b - a >= MIN_SPAN_US ? { fromUs: a, toUs: b } : { fromUs: a, toUs: a + MIN_SPAN_US };
}

export interface Tick {
  us: EpochUs;
  utc: string;
  local: string;
}

/** Ticks about every `spacingPx` pixels, labelled in UTC and in the browser's time zone. */
export function timeTicks(range: TimeRange, widthPx: number, spacingPx = 120): Tick[] {
  const count = Math.max(2, Math.floor(widthPx / spacingPx));
  const span = range.toUs - range.fromUs;
  let values: number[];
  if (span >= 20_000) {
    const ms = d3.scaleUtc().domain([range.fromUs / 1000, range.toUs / 1000]).ticks(count);
    values = ms.map((d) => d.getTime() * 1000);
  } else {
    // Below tens of milliseconds: linear ticks on microseconds counted from the second they are in.
    const base = Math.floor(range.fromUs / 1e6) * 1e6;
    values = d3.ticks(range.fromUs - base, range.toUs - base, count).map((v) => base + Math.round(v));
  }
  const step = values.length > 1 ? (values[1] ?? 0) - (values[0] ?? 0) : span;
  if (isCaptureClock(range.toUs)) {
    // Nothing aligned these captures: seconds on their own clock, never a 1970 date.
    return values.map((us) => ({ us, utc: captureClockText(us, step), local: '' }));
  }
  return values.map((us) => ({ us, utc: formatClock(us, step, 'utc'), local: formatClock(us, step, 'local') }));
}

const pad = (n: number, w = 2): string => String(n).padStart(w, '0');

/** Wall-clock time of `us` with as many fraction digits as a step of `stepUs` needs. */
export function formatClock(us: EpochUs, stepUs: number, zone: 'utc' | 'local'): string {
  const ms = Math.floor(us / 1000);
  const d = new Date(ms);
  const utc = zone === 'utc';
  const h = utc ? d.getUTCHours() : d.getHours();
  const m = utc ? d.getUTCMinutes() : d.getMinutes();
  const s = utc ? d.getUTCSeconds() : d.getSeconds();
  if (stepUs >= 3_600e6) {
    const mo = utc ? d.getUTCMonth() : d.getMonth();
    const day = utc ? d.getUTCDate() : d.getDate();
    return `${pad(mo + 1)}-${pad(day)} ${pad(h)}:${pad(m)}`;
  }
  const clock = `${pad(h)}:${pad(m)}:${pad(s)}`;
  const micros = ((us % 1e6) + 1e6) % 1e6;
  if (stepUs >= 1e6) return clock;
  if (stepUs >= 1000) return `${clock}.${pad(Math.floor(micros / 1000), 3)}`;
  return `${clock}.${pad(Math.round(micros), 6)}`;
}

/** A full instant for readouts: "2026-11-21 08:00:01.123456 UTC". */
export function formatInstant(us: EpochUs, zone: 'utc' | 'local'): string {
  if (isCaptureClock(us)) return `${captureClockText(us)} (capture clock)`;
  const d = new Date(Math.floor(us / 1000));
  const utc = zone === 'utc';
  const date = utc
    ? `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`
    : `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
  return `${date} ${formatClock(us, 1, zone)}${utc ? ' UTC' : ''}`;
}

/** "UTC+01:00" for the browser's zone at `us` (daylight saving included). */
export function localZoneName(us: EpochUs): string {
  const offset = -new Date(Math.floor(us / 1000)).getTimezoneOffset();
  const sign = offset >= 0 ? '+' : '-';
  const abs = Math.abs(offset);
  return `UTC${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}
