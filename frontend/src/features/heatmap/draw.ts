/**
 * Canvas drawing for the heatmap: the cells and their axes on one layer, the selection, drag and
 * cursor on another, so moving a cursor never repaints sixty thousand cells.
 */
import { heatColour, type HeatScale } from './colour';
import { formatOffset, rangeBox, type CellRange, type GridShape, type Layout } from './grid';

export const MARGIN = { left: 64, right: 16, top: 8, bottom: 40 };
const MAX_CELL_W = 80;
const MIN_LABEL_GAP_PX = 14;

export interface Palette {
  empty: string;
  text: string;
  muted: string;
  accent: string;
  font: string;
}

export function readPalette(el: Element): Palette {
  const css = getComputedStyle(el);
  const v = (name: string, fallback: string) => css.getPropertyValue(name).trim() || fallback;
  return {
    empty: v('--bg-inset', '#0b0e12'),
    text: v('--text', '#d8dee6'),
    muted: v('--muted', '#8b96a3'),
    accent: v('--accent', '#5aa9ff'),
    font: `11px ${v('--sans', 'sans-serif')}`,
  };
}

/** Cells as wide as the width allows (at most 80 px, so a ten-second capture still reads as a grid). */
export function layoutFor(g: GridShape, width: number): Layout & { width: number; height: number } {
  const plotW = Math.max(1, width - MARGIN.left - MARGIN.right);
  const cellW = Math.min(MAX_CELL_W, plotW / Math.max(1, g.columns));
  const cellH = Math.max(3, Math.min(24, Math.floor(480 / Math.max(1, g.rows))));
  return {
    left: MARGIN.left,
    top: MARGIN.top,
    cellW,
    cellH,
    width: Math.ceil(MARGIN.left + cellW * g.columns + MARGIN.right),
    height: MARGIN.top + cellH * g.rows + MARGIN.bottom,
  };
}

/** Size a canvas for the device's pixel ratio and return its context in CSS pixels. */
export function prepare(canvas: HTMLCanvasElement, width: number, height: number): CanvasRenderingContext2D | null {
  const ratio = window.devicePixelRatio || 1;
  canvas.width = Math.round(width * ratio);
  canvas.height = Math.round(height * ratio);
  canvas.style.width = `${width}px`;
  canvas.style.height = `${height}px`;
  const ctx = canvas.getContext('2d');
  if (!ctx) return null;
  ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  ctx.clearRect(0, 0, width, height);
  return ctx;
}

export interface ColumnLabel {
  col: number;
  text: string;
}

export function drawCells(ctx: CanvasRenderingContext2D, g: GridShape, values: number[][], scale: HeatScale, l: Layout, p: Palette): void {
  ctx.fillStyle = p.empty;
  ctx.fillRect(l.left, l.top, l.cellW * g.columns, l.cellH * g.rows);
  for (let c = 0; c < g.columns; c += 1) {
    const column = values[c] ?? [];
    // Whole-pixel edges: neighbouring cells touch, with no hairline gaps from fractional widths.
    const x0 = Math.round(l.left + c * l.cellW);
    const x1 = Math.round(l.left + (c + 1) * l.cellW);
    for (let r = 0; r < g.rows; r += 1) {
      const fill = heatColour(column[r] ?? 0, scale);
      if (fill === null) continue;
      ctx.fillStyle = fill;
      ctx.fillRect(x0, l.top + r * l.cellH, Math.max(1, x1 - x0), l.cellH);
    }
  }
}

export function drawAxes(ctx: CanvasRenderingContext2D, g: GridShape, l: Layout, p: Palette, columnLabels: ColumnLabel[]): void {
  ctx.font = p.font;
  ctx.fillStyle = p.muted;
  ctx.textBaseline = 'middle';
  ctx.textAlign = 'right';
  const step = Math.max(1, Math.ceil(MIN_LABEL_GAP_PX / l.cellH));
  for (let r = 0; r < g.rows; r += step) ctx.fillText(formatOffset(r * g.rowUs), l.left - 6, l.top + r * l.cellH + 1);
  ctx.textBaseline = 'top';
  const bottom = l.top + g.rows * l.cellH;
  for (const { col, text } of columnLabels) {
    const x = l.left + (col + 0.5) * l.cellW;
    ctx.fillRect(Math.round(x), bottom + 1, 1, 4);
    const first = col === 0;
    const last = col === g.columns - 1 && g.columns > 1;
    ctx.textAlign = first ? 'left' : last ? 'right' : 'center';
    ctx.fillText(text, first ? l.left : last ? l.left + g.columns * l.cellW : x, bottom + 8);
  }
}

export interface Overlay {
  selected: CellRange | null;
  /** The selection is the rows outside `selected`'s (a "the rest" link). */
  outside: boolean;
  dragging: CellRange | null;
  cursor: CellRange | null;
  focused: boolean;
}

export function drawOverlay(ctx: CanvasRenderingContext2D, g: GridShape, l: Layout, p: Palette, o: Overlay): void {
  const gridW = l.cellW * g.columns;
  const gridH = l.cellH * g.rows;
  const shown = o.dragging ?? o.selected;
  if (shown) {
    const b = rangeBox(l, shown);
    // Dim everything but the selection, so what a flame graph will count is what stays lit.
    ctx.fillStyle = 'rgba(0, 0, 0, 0.45)';
    if (o.outside && !o.dragging) ctx.fillRect(b.x, b.y, b.w, b.h);
    else {
      ctx.fillRect(l.left, l.top, gridW, b.y - l.top);
      ctx.fillRect(l.left, b.y + b.h, gridW, l.top + gridH - b.y - b.h);
      ctx.fillRect(l.left, b.y, b.x - l.left, b.h);
      ctx.fillRect(b.x + b.w, b.y, l.left + gridW - b.x - b.w, b.h);
    }
    ctx.strokeStyle = p.accent;
    ctx.lineWidth = 2;
    ctx.setLineDash(o.outside && !o.dragging ? [4, 3] : []);
    ctx.strokeRect(b.x + 1, b.y + 1, Math.max(1, b.w - 2), Math.max(1, b.h - 2));
  }
  if (o.cursor && o.focused) {
    const b = rangeBox(l, o.cursor);
    ctx.strokeStyle = p.text;
    ctx.lineWidth = 1;
    ctx.setLineDash([3, 2]);
    ctx.strokeRect(b.x + 0.5, b.y + 0.5, Math.max(1, b.w - 1), Math.max(1, b.h - 1));
  }
  ctx.setLineDash([]);
}

const MIN_TICK_GAP_PX = 90;

/** "08:01:40" on a wall clock, "100 s" on a capture's own clock. */
const secondLabel = (second: number, wallClock: boolean): string =>
  wallClock ? new Date(second * 1000).toISOString().slice(11, 19) : `${second} s`;

/**
 * Labels under the columns: the first and last column's time, and "+N s" from the first at
 * round steps in between, never closer than 90 px.
 */
export function columnLabels(g: GridShape, cellW: number, wallClock: boolean): ColumnLabel[] {
  if (g.columns === 0) return [];
  const labels: ColumnLabel[] = [{ col: 0, text: secondLabel(g.firstSecond, wallClock) }];
  const last = g.columns - 1;
  const minCols = Math.ceil(MIN_TICK_GAP_PX / cellW);
  const nice = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 1800, 3600];
  const stepCols = nice.map((s) => Math.ceil(s / g.columnSeconds)).find((c) => c >= minCols) ?? minCols;
  for (let col = stepCols; col <= last - minCols; col += stepCols) {
    labels.push({ col, text: `+${col * g.columnSeconds} s` });
  }
  if (last > 0 && last * cellW >= MIN_TICK_GAP_PX) {
    labels.push({ col: last, text: secondLabel(g.firstSecond + last * g.columnSeconds, wallClock) });
  }
  return labels;
}
