/**
 * Cell ↔ time math for the heatmap: which seconds a column covers, which offsets a row covers, and
 * how a rectangle of cells becomes the shared selection (`from`/`to` and `within`) and back.
 * Pure, so the canvas component only draws and forwards input.
 */
import type { EpochUs, WithinSecond } from '../../shared/selection';
import { formatCount, formatDurationNs } from '../../shared/units';

export const US_PER_SECOND = 1_000_000;

export interface GridShape {
  /** Epoch second where column 0 starts. */
  firstSecond: number;
  /** Seconds per column (1 unless the server merged columns). */
  columnSeconds: number;
  columns: number;
  rows: number;
  /** Microseconds per row. */
  rowUs: number;
}

export interface Cell {
  col: number;
  row: number;
}

/** A rectangle of cells, inclusive on both ends, col0 ≤ col1 and row0 ≤ row1. */
export interface CellRange {
  col0: number;
  col1: number;
  row0: number;
  row1: number;
}

export const rangeOf = (a: Cell, b: Cell): CellRange => ({
  col0: Math.min(a.col, b.col),
  col1: Math.max(a.col, b.col),
  row0: Math.min(a.row, b.row),
  row1: Math.max(a.row, b.row),
});

export const sameRange = (a: CellRange | null, b: CellRange | null): boolean =>
  a === b || (a !== null && b !== null && a.col0 === b.col0 && a.col1 === b.col1 && a.row0 === b.row0 && a.row1 === b.row1);

export const columnStartUs = (g: GridShape, col: number): EpochUs => (g.firstSecond + col * g.columnSeconds) * US_PER_SECOND;

export interface CellSelection {
  fromUs: EpochUs;
  toUs: EpochUs;
  /** null when the rows cover the whole second. */
  within: WithinSecond | null;
}

/** The selection a rectangle of cells stands for: its columns' seconds and its rows' offsets. */
export function rangeSelection(g: GridShape, r: CellRange): CellSelection {
  const startUs = r.row0 * g.rowUs;
  const endUs = Math.min((r.row1 + 1) * g.rowUs, US_PER_SECOND);
  return {
    fromUs: columnStartUs(g, r.col0),
    toUs: columnStartUs(g, r.col1 + 1),
    within: startUs === 0 && endUs === US_PER_SECOND ? null : { startUs, endUs, outside: false },
  };
}

/**
 * The cells a selection covers on this grid (columns overlapping [from, to), rows overlapping
 * `within`), for drawing it; null when it misses the grid. An `outside` window is drawn as its
 * inside rows, and the caller says "outside" in words.
 */
export function selectionRange(
  g: GridShape,
  fromUs: EpochUs | null,
  toUs: EpochUs | null,
  within: WithinSecond | null,
): CellRange | null {
  if (g.columns === 0 || (fromUs === null && toUs === null && within === null)) return null;
  const spanUs = g.columnSeconds * US_PER_SECOND;
  const origin = g.firstSecond * US_PER_SECOND;
  const col0 = fromUs === null ? 0 : Math.max(0, Math.floor((fromUs - origin) / spanUs));
  const col1 = toUs === null ? g.columns - 1 : Math.min(g.columns - 1, Math.ceil((toUs - origin) / spanUs) - 1);
  const row0 = within === null ? 0 : Math.floor(within.startUs / g.rowUs);
  const row1 = within === null ? g.rows - 1 : Math.min(g.rows - 1, Math.ceil(within.endUs / g.rowUs) - 1);
  if (col0 > col1 || row0 > row1) return null;
  return { col0, col1, row0, row1 };
}

export const clampCell = (g: GridShape, c: Cell): Cell => ({
  col: Math.max(0, Math.min(g.columns - 1, c.col)),
  row: Math.max(0, Math.min(g.rows - 1, c.row)),
});

const STEPS: Record<string, Cell> = {
  ArrowLeft: { col: -1, row: 0 },
  ArrowRight: { col: 1, row: 0 },
  ArrowUp: { col: 0, row: -1 },
  ArrowDown: { col: 0, row: 1 },
  Home: { col: -Infinity, row: 0 },
  End: { col: Infinity, row: 0 },
  PageUp: { col: 0, row: -10 },
  PageDown: { col: 0, row: 10 },
};

/** The cell a navigation key moves to, or null when the key is not a move. */
export function moveCell(g: GridShape, c: Cell, key: string): Cell | null {
  const step = STEPS[key];
  if (!step) return null;
  return clampCell(g, { col: c.col + step.col, row: c.row + step.row });
}

/** Where the grid sits on the canvas, in CSS pixels. */
export interface Layout {
  left: number;
  top: number;
  cellW: number;
  cellH: number;
}

export function cellAtPoint(g: GridShape, l: Layout, x: number, y: number): Cell | null {
  const col = Math.floor((x - l.left) / l.cellW);
  const row = Math.floor((y - l.top) / l.cellH);
  if (col < 0 || row < 0 || col >= g.columns || row >= g.rows) return null;
  return { col, row };
}

/** The cell under a point, clamped to the grid: a drag may leave it and still select up to its edge. */
export function nearestCell(g: GridShape, l: Layout, x: number, y: number): Cell {
  return clampCell(g, { col: Math.floor((x - l.left) / l.cellW), row: Math.floor((y - l.top) / l.cellH) });
}

export function rangeBox(l: Layout, r: CellRange): { x: number; y: number; w: number; h: number } {
  return {
    x: l.left + r.col0 * l.cellW,
    y: l.top + r.row0 * l.cellH,
    w: (r.col1 - r.col0 + 1) * l.cellW,
    h: (r.row1 - r.row0 + 1) * l.cellH,
  };
}

/** "20 ms", "1.6 ms", "250 µs": a row offset, in the unit people read it in. */
export function formatOffset(us: number): string {
  if (us === 0) return '0 ms';
  if (us % 1000 === 0 || us >= 10_000) return `${+(us / 1000).toFixed(1)} ms`;
  if (us >= 1000) return `${+(us / 1000).toFixed(2)} ms`;
  return `${us} µs`;
}

/** "0–20 ms" within the second; units are written twice only when they differ. */
export function formatOffsets(startUs: number, endUs: number): string {
  const start = formatOffset(startUs);
  const end = formatOffset(endUs);
  return start.endsWith(' ms') && end.endsWith(' ms') ? `${start.slice(0, -3)}–${end}` : `${start} – ${end}`;
}

/** "2025-11-21 08:01:40 UTC", or "second 100 (capture clock)" when times are not wall-clock. */
export function formatSecond(second: number, wallClock: boolean): string {
  if (!wallClock) return `second ${second} (capture clock)`;
  return `${new Date(second * 1000).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/** A column's seconds in words: one second, or a merged span. */
export function formatColumn(g: GridShape, col: number, wallClock: boolean): string {
  const first = g.firstSecond + col * g.columnSeconds;
  if (g.columnSeconds === 1) return formatSecond(first, wallClock);
  const last = first + g.columnSeconds - 1;
  return wallClock
    ? `${formatSecond(first, true)} – ${formatSecond(last, true).slice(11)} (${g.columnSeconds} s)`
    : `seconds ${first}–${last} (capture clock)`;
}

const SINGULAR: Record<string, string> = { samples: 'sample', calls: 'call', intervals: 'interval', faults: 'fault', events: 'event' };

/** A cell's value in its unit: "12.3 ms" for durations, "1 call", "1,204 samples". */
export function formatHeat(value: number, unit: string): string {
  if (unit === 'ns') return formatDurationNs(value);
  return `${formatCount(value)} ${value === 1 ? (SINGULAR[unit] ?? unit) : unit}`;
}
