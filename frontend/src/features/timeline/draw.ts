/**
 * Canvas drawing of each kind of track. Dense tracks (thousands of buckets, stacked) would cost tens
 * of thousands of SVG nodes; on a canvas they cost a few milliseconds. `trackExtent` is pure and
 * decides each track's y scale; the draw functions only paint.
 */
import type { CpuData, EventsData, Grid, MetricData, OffCpuData, TrackData } from './api';
import type { Scale } from './timeScale';

export const OTHER_COLOR = '#6b7683';
export const STATE_COLORS: Record<string, string> = {
  D: '#f06a6a',
  S: '#5aa9ff',
  R: '#e8b339',
  I: '#8b96a3',
};
const FALLBACK_STATE_COLOR = '#b48ead';
const MARK_COLOR = '#e8b339';
const UNFINISHED_COLOR = '#f06a6a';
const METRIC_COLOR = '#4cc38a';
const PALETTE = ['#5aa9ff', '#f0954c', '#4cc38a', '#c678dd', '#e8c54c', '#56b6c2', '#f06a6a', '#98c379', '#d19a66', '#7aa7d9'];

/** A process keeps its colour across zooms and tracks: chosen by its name, not its rank. */
export function processColor(comm: string, other: boolean): string {
  if (other) return OTHER_COLOR;
  let h = 0;
  for (let i = 0; i < comm.length; i += 1) h = (h * 31 + comm.charCodeAt(i)) >>> 0;
  return PALETTE[h % PALETTE.length] ?? OTHER_COLOR;
}

export function stateColor(state: string): string {
  return STATE_COLORS[state] ?? FALLBACK_STATE_COLOR;
}

export interface Extent {
  lo: number;
  hi: number;
  /** The y scale is logarithmic (event latencies span ns to seconds). */
  log: boolean;
}

/** The y range a track is drawn in, from what it holds. */
export function trackExtent(data: TrackData, grid: Grid): Extent {
  const seconds = grid.width_us / 1e6;
  switch (data.type) {
    case 'cpu': {
      let hi = 0;
      for (let i = 0; i < grid.count; i += 1) {
        let sum = 0;
        for (const g of data.groups) sum += g.counts[i] ?? 0;
        hi = Math.max(hi, sum / seconds);
      }
      return { lo: 0, hi: hi || 1, log: false };
    }
    case 'offcpu': {
      let hi = 0;
      for (let i = 0; i < grid.count; i += 1) {
        let sum = 0;
        for (const s of data.states) sum += s.ns[i] ?? 0;
        hi = Math.max(hi, sum / (grid.width_us * 1000));
      }
      return { lo: 0, hi: hi || 1, log: false };
    }
    case 'events': {
      const values =
        data.mode === 'marks'
          ? data.marks.map((m) => m.duration_ns).filter((d): d is number => d !== null && d > 0)
          : (data.buckets?.max_ns ?? []).filter((d): d is number => d !== null && d > 0);
      if (values.length === 0) return { lo: 1e3, hi: 1e9, log: true };
      const lo = Math.min(1e3, ...values);
      const hi = Math.max(...values);
      return { lo, hi: hi > lo ? hi : lo * 10, log: true };
    }
    case 'metric': {
      let lo = Infinity;
      let hi = -Infinity;
      if (data.mode === 'points') {
        for (const p of data.points) {
          lo = Math.min(lo, p.value);
          hi = Math.max(hi, p.value);
        }
      } else if (data.buckets) {
        for (const v of data.buckets.min) if (v !== null) lo = Math.min(lo, v);
        for (const v of data.buckets.max) if (v !== null) hi = Math.max(hi, v);
      }
      if (!Number.isFinite(lo) || !Number.isFinite(hi)) return { lo: 0, hi: 1, log: false };
      if (hi === lo) return { lo: lo - Math.abs(lo || 1) * 0.1, hi: hi + Math.abs(hi || 1) * 0.1, log: false };
      const padding = (hi - lo) * 0.06;
      return { lo: lo - padding, hi: hi + padding, log: false };
    }
  }
}

export interface Frame {
  ctx: CanvasRenderingContext2D;
  width: number;
  height: number;
  scale: Scale;
  grid: Grid;
  extent: Extent;
}

function y(frame: Frame, v: number): number {
  const { lo, hi, log } = frame.extent;
  const top = 2;
  const usable = frame.height - top - 1;
  const f = log ? (Math.log10(Math.max(v, lo)) - Math.log10(lo)) / (Math.log10(hi) - Math.log10(lo) || 1) : (v - lo) / (hi - lo || 1);
  return frame.height - 1 - Math.max(0, Math.min(1, f)) * usable;
}

/** Pixel columns of bucket i, or null when it is off screen. */
function columns(frame: Frame, i: number): [number, number] | null {
  const { grid, scale, width } = frame;
  const x0 = scale.x(grid.start_us + i * grid.width_us);
  const x1 = scale.x(grid.start_us + (i + 1) * grid.width_us);
  if (x1 < 0 || x0 > width) return null;
  return [x0, Math.max(x1 - x0, 1)];
}

function drawStack(frame: Frame, layers: { color: string; values: number[] }[], divisor: number): void {
  const { ctx, grid } = frame;
  const base = new Float64Array(grid.count);
  for (const layer of layers) {
    ctx.fillStyle = layer.color;
    for (let i = 0; i < grid.count; i += 1) {
      const v = (layer.values[i] ?? 0) / divisor;
      if (v <= 0) continue;
      const col = columns(frame, i);
      const below = base[i] ?? 0;
      base[i] = below + v;
      if (!col) continue;
      const top = y(frame, below + v);
      ctx.fillRect(col[0], top, col[1], y(frame, below) - top);
    }
  }
}

export function drawCpu(frame: Frame, data: CpuData): void {
  drawStack(
    frame,
    data.groups.map((g) => ({ color: processColor(g.comm, g.other), values: g.counts })),
    frame.grid.width_us / 1e6,
  );
}

export function drawOffCpu(frame: Frame, data: OffCpuData): void {
  drawStack(
    frame,
    data.states.map((s) => ({ color: stateColor(s.state), values: s.ns })),
    frame.grid.width_us * 1000,
  );
}

export function drawEvents(frame: Frame, data: EventsData): void {
  const { ctx, scale, width, height } = frame;
  if (data.mode === 'marks') {
    for (const m of data.marks) {
      const x = scale.x(m.ts_us);
      if (m.duration_ns === null) {
        ctx.fillStyle = UNFINISHED_COLOR;
        ctx.fillRect(x, 0, 1, height);
        continue;
      }
      const w = (m.duration_ns / 1000) * scale.pxPerUs;
      if (x + w < 0 || x > width) continue;
      const top = y(frame, m.duration_ns);
      ctx.fillStyle = MARK_COLOR;
      ctx.globalAlpha = 0.55;
      ctx.fillRect(x, top, Math.max(w, 1), height - top);
      ctx.globalAlpha = 1;
      ctx.fillRect(x, top, Math.max(w, 1.5), 2);
    }
    return;
  }
  if (!data.buckets) return;
  ctx.fillStyle = MARK_COLOR;
  for (let i = 0; i < frame.grid.count; i += 1) {
    const longest = data.buckets.max_ns[i];
    if (longest === null || longest === undefined || longest <= 0) continue;
    const col = columns(frame, i);
    if (!col) continue;
    const top = y(frame, longest);
    ctx.fillRect(col[0], top, col[1], height - top);
  }
}

export function drawMetric(frame: Frame, data: MetricData): void {
  const { ctx, scale } = frame;
  ctx.strokeStyle = METRIC_COLOR;
  ctx.fillStyle = METRIC_COLOR;
  ctx.lineWidth = 1.5;
  if (data.mode === 'points') {
    ctx.beginPath();
    data.points.forEach((p, i) => {
      const px = scale.x(p.ts_us);
      if (i === 0) ctx.moveTo(px, y(frame, p.value));
      else ctx.lineTo(px, y(frame, p.value));
    });
    ctx.stroke();
    if (data.points.length < frame.width / 6) {
      for (const p of data.points) ctx.fillRect(scale.x(p.ts_us) - 1.5, y(frame, p.value) - 1.5, 3, 3);
    }
    return;
  }
  if (!data.buckets) return;
  const { min, max, avg } = data.buckets;
  ctx.globalAlpha = 0.3;
  for (let i = 0; i < frame.grid.count; i += 1) {
    const lo = min[i];
    const hi = max[i];
    if (lo === null || lo === undefined || hi === null || hi === undefined) continue;
    const col = columns(frame, i);
    if (!col) continue;
    const top = y(frame, hi);
    ctx.fillRect(col[0], top, col[1], Math.max(y(frame, lo) - top, 1));
  }
  ctx.globalAlpha = 1;
  ctx.beginPath();
  let open = false;
  for (let i = 0; i < frame.grid.count; i += 1) {
    const v = avg[i];
    if (v === null || v === undefined) {
      open = false;
      continue;
    }
    const px = scale.x(frame.grid.start_us + (i + 0.5) * frame.grid.width_us);
    if (open) ctx.lineTo(px, y(frame, v));
    else ctx.moveTo(px, y(frame, v));
    open = true;
  }
  ctx.stroke();
}

export function drawTrack(frame: Frame, data: TrackData): void {
  switch (data.type) {
    case 'cpu':
      drawCpu(frame, data);
      break;
    case 'offcpu':
      drawOffCpu(frame, data);
      break;
    case 'events':
      drawEvents(frame, data);
      break;
    case 'metric':
      drawMetric(frame, data);
      break;
  }
}
