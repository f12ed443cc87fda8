/**
 * What every track holds at one instant (pure): the bucket under the cursor, the nearest event mark,
 * the metric's last value. Returned as text lines; the tooltip renders them as text nodes only.
 */
import { formatCount, formatDurationNs } from '../../shared/units';
import type { EventMark, Grid, TrackData } from './api';
import { formatClock } from './timeScale';

export interface HoverLine {
  label: string;
  value: string;
  color?: string;
}

/** Index of the bucket holding `tUs`, or null outside the grid. */
export function bucketAt(grid: Grid, tUs: number): number | null {
  const i = Math.floor((tUs - grid.start_us) / grid.width_us);
  return i >= 0 && i < grid.count ? i : null;
}

/** Index of the first item whose time is ≥ `tUs` (items sorted by time). */
function lowerBound<T>(items: readonly T[], tUs: number, time: (item: T) => number): number {
  let lo = 0;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (time(items[mid] as T) < tUs) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The mark closest to `tUs` whose start, or span, is within `toleranceUs`; null if none. */
export function nearestMark(marks: readonly EventMark[], tUs: number, toleranceUs: number): EventMark | null {
  const i = lowerBound(marks, tUs, (m) => m.ts_us);
  let best: EventMark | null = null;
  let bestDistance = Infinity;
  const consider = (m: EventMark | undefined) => {
    if (!m) return;
    const end = m.ts_us + (m.duration_ns ?? 0) / 1000;
    const distance = tUs < m.ts_us ? m.ts_us - tUs : tUs > end ? tUs - end : 0;
    if (distance <= toleranceUs && distance < bestDistance) {
      best = m;
      bestDistance = distance;
    }
  };
  consider(marks[i]);
  // Marks that started earlier may still be running at tUs: look back while they could reach it.
  for (let j = i - 1; j >= 0; j -= 1) {
    const m = marks[j];
    if (!m) break;
    consider(m);
    if (tUs - m.ts_us > toleranceUs + 10_000_000) break;
  }
  return best;
}

/** The last point at or before `tUs` (a metric holds its value until the next sample); null before the first. */
export function pointAt<T extends { ts_us: number }>(points: readonly T[], tUs: number): T | null {
  const i = lowerBound(points, tUs + 1, (p) => p.ts_us);
  return i > 0 ? (points[i - 1] ?? null) : null;
}

export function formatNumber(v: number): string {
  const abs = Math.abs(v);
  if (abs >= 1e6) return `${formatCount(Math.round(v / 1e5) / 10)}M`;
  if (abs >= 1e4) return formatCount(Math.round(v));
  if (abs >= 100) return formatCount(Math.round(v * 10) / 10);
  return String(Number(v.toPrecision(4)));
}

export function withUnit(v: number, unit: string | null): string {
  return unit ? `${formatNumber(v)} ${unit}` : formatNumber(v);
}

const STATE_NAMES: Record<string, string> = {
  D: 'D (uninterruptible)',
  S: 'S (sleeping)',
  R: 'R (runnable, preempted)',
  I: 'I (idle)',
};

export function stateName(state: string): string {
  return STATE_NAMES[state] ?? state;
}

/** The values of one track at `tUs`; `toleranceUs` is how far from the cursor an event mark may be. */
export function hoverLines(data: TrackData, grid: Grid, tUs: number, toleranceUs: number, unit: string | null = null): HoverLine[] {
  const seconds = grid.width_us / 1e6;
  const i = bucketAt(grid, tUs);
  switch (data.type) {
    case 'cpu': {
      if (i === null) return [];
      const rows = data.groups
        .map((g) => ({ g, n: g.counts[i] ?? 0 }))
        .filter((r) => r.n > 0)
        .sort((a, b) => b.n - a.n);
      const total = rows.reduce((sum, r) => sum + r.n, 0);
      const who = data.split === 'thread' ? 'tid' : 'pid';
      return [
        { label: 'samples', value: `${formatCount(total)} (${formatNumber(total / seconds)}/s)` },
        ...rows.map(({ g, n }) => ({
          label: g.other ? 'other' : g.pid !== null ? `${g.comm} ${who} ${g.pid}` : g.comm,
          value: `${formatCount(n)} (${formatNumber(n / seconds)}/s)`,
        })),
      ];
    }
    case 'offcpu': {
      if (i === null) return [];
      return data.states
        .map((s) => ({ s, ns: s.ns[i] ?? 0 }))
        .filter((r) => r.ns > 0)
        .map(({ s, ns }) => ({
          label: stateName(s.state),
          value: `${formatDurationNs(ns)} off-CPU · ${formatNumber(ns / (grid.width_us * 1000))} threads avg`,
        }));
    }
    case 'events': {
      if (data.mode === 'marks') {
        const m = nearestMark(data.marks, tUs, toleranceUs);
        if (!m) return [{ label: 'events', value: 'none here' }];
        const who = m.tid !== null ? ` · ${m.comm} tid ${m.tid}` : ` · ${m.comm}`;
        const took = m.duration_ns !== null ? formatDurationNs(m.duration_ns) : 'never finished (no end recorded)';
        return [{ label: m.name, value: `${took} at ${formatClock(m.ts_us, 1, 'utc')}${who}` }];
      }
      if (i === null || !data.buckets) return [];
      const n = data.buckets.count[i] ?? 0;
      const longest = data.buckets.max_ns[i];
      return [
        {
          label: 'events',
          value: n === 0 ? 'none' : `${formatCount(n)}, longest ${longest != null ? formatDurationNs(longest) : '– (none finished)'}`,
        },
      ];
    }
    case 'metric': {
      if (data.mode === 'points') {
        const p = pointAt(data.points, tUs);
        if (!p) return [{ label: 'value', value: 'no sample yet' }];
        return [{ label: 'value', value: `${withUnit(p.value, unit)} (sampled ${formatClock(p.ts_us, 1000, 'utc')})` }];
      }
      if (i === null || !data.buckets) return [];
      const count = data.buckets.count[i] ?? 0;
      if (count === 0) return [{ label: 'value', value: 'no samples in this bucket' }];
      const { min, avg, max } = data.buckets;
      return [
        { label: 'min', value: withUnit(min[i] ?? 0, unit) },
        { label: 'avg', value: withUnit(avg[i] ?? 0, unit) },
        { label: 'max', value: `${withUnit(max[i] ?? 0, unit)} (${formatCount(count)} samples)` },
      ];
    }
  }
}
