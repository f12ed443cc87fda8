/**
 * The heatmap grid on canvas: one column per second (or merged span), one row per slice of the
 * second. Drag over cells (or move a cursor with the arrows, extend with shift, Enter) to select a
 * rectangle; the page turns it into the shared selection. Hover text is plain text, never HTML.
 */
import { useEffect, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { useShortcutHelp } from '../../shared/hooks/useShortcuts';
import { shortcutFor } from '../../shared/shortcuts';
import { afterNextPaint } from '../../shared/timing';
import type { HeatmapResponse } from './api';
import type { HeatScale } from './colour';
import { describeCell, gridOf } from './cells';
import { columnLabels, drawAxes, drawCells, drawOverlay, layoutFor, prepare, readPalette } from './draw';
import {
  cellAtPoint,
  clampCell,
  moveCell,
  nearestCell,
  rangeOf,
  type Cell,
  type CellRange,
} from './grid';
import { HEATMAP_GRID_SHORTCUTS } from './shortcuts';

export interface HeatmapCanvasProps {
  data: HeatmapResponse;
  /** The colour scale, shared with the legend. */
  scale: HeatScale;
  /** The selection in the URL, as cells of this grid. */
  selected: CellRange | null;
  /** The selection is "outside these rows". */
  outside: boolean;
  onSelect: (range: CellRange) => void;
  /** The cells are drawn and painted; `at` is a performance.now() time. */
  onDrawn: (at: number) => void;
}

interface Drag {
  anchor: Cell;
  current: Cell;
}

export function HeatmapCanvas({ data, scale, selected, outside, onSelect, onDrawn }: HeatmapCanvasProps) {
  const wrapRef = useRef<HTMLDivElement>(null);
  const baseRef = useRef<HTMLCanvasElement>(null);
  const overlayRef = useRef<HTMLCanvasElement>(null);
  const [width, setWidth] = useState(0);
  const grid = useMemo(() => gridOf(data), [data]);
  const layout = useMemo(() => layoutFor(grid, width), [grid, width]);
  const [drag, setDrag] = useState<Drag | null>(null);
  const [cursorState, setCursor] = useState<Drag | null>(null);
  // A cursor from a finer grid (before the rows changed) stays inside this one.
  const cursor = cursorState && { anchor: clampCell(grid, cursorState.anchor), current: clampCell(grid, cursorState.current) };
  const [hover, setHover] = useState<{ cell: Cell; x: number; y: number } | null>(null);
  const [focused, setFocused] = useState(false);

  useEffect(() => {
    const el = wrapRef.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver((entries) => setWidth(Math.floor(entries[0]?.contentRect.width ?? 0)));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  const drawn = useRef(onDrawn);
  useEffect(() => {
    drawn.current = onDrawn;
  });

  useLayoutEffect(() => {
    const canvas = baseRef.current;
    if (!canvas || width === 0) return;
    const ctx = prepare(canvas, layout.width, layout.height);
    if (!ctx) return;
    const palette = readPalette(canvas);
    drawCells(ctx, grid, data.values, scale, layout, palette);
    drawAxes(ctx, grid, layout, palette, columnLabels(grid, layout.cellW, data.wall_clock));
    return afterNextPaint((at) => drawn.current(at));
  }, [data, scale, grid, layout, width]);

  useLayoutEffect(() => {
    const canvas = overlayRef.current;
    if (!canvas || width === 0) return;
    const ctx = prepare(canvas, layout.width, layout.height);
    if (!ctx) return;
    drawOverlay(ctx, grid, layout, readPalette(canvas), {
      selected,
      outside,
      dragging: drag ? rangeOf(drag.anchor, drag.current) : null,
      cursor: cursorState ? rangeOf(clampCell(grid, cursorState.anchor), clampCell(grid, cursorState.current)) : null,
      focused,
    });
  }, [grid, layout, width, selected, outside, drag, cursorState, focused]);

  const point = (e: PointerEvent<HTMLCanvasElement>) => {
    const box = e.currentTarget.getBoundingClientRect();
    return { x: e.clientX - box.left, y: e.clientY - box.top };
  };

  const onPointerDown = (e: PointerEvent<HTMLCanvasElement>) => {
    if (e.button !== 0) return;
    const { x, y } = point(e);
    const cell = cellAtPoint(grid, layout, x, y);
    if (!cell) return;
    e.preventDefault();
    e.currentTarget.focus();
    e.currentTarget.setPointerCapture(e.pointerId);
    setDrag({ anchor: cell, current: cell });
  };

  const onPointerMove = (e: PointerEvent<HTMLCanvasElement>) => {
    const { x, y } = point(e);
    const cell = cellAtPoint(grid, layout, x, y);
    setHover(cell ? { cell, x, y } : null);
    if (drag) {
      const current = nearestCell(grid, layout, x, y);
      if (current.col !== drag.current.col || current.row !== drag.current.row) setDrag({ ...drag, current });
    }
  };

  const onPointerUp = () => {
    if (!drag) return;
    setDrag(null);
    setCursor(drag);
    onSelect(rangeOf(drag.anchor, drag.current));
  };

  useShortcutHelp(HEATMAP_GRID_SHORTCUTS);
  const onKeyDown = (e: KeyboardEvent<HTMLCanvasElement>) => {
    const action = shortcutFor(HEATMAP_GRID_SHORTCUTS, e)?.action;
    if (grid.columns === 0 || action === undefined) return;
    if (action === 'select') {
      if (!cursor) return;
      e.preventDefault();
      onSelect(rangeOf(cursor.anchor, cursor.current));
      return;
    }
    if (action === 'hide') {
      setCursor(null);
      return;
    }
    const from = cursor?.current ?? (selected ? { col: selected.col0, row: selected.row0 } : { col: 0, row: 0 });
    const step = moveCell(grid, from, e.key);
    if (!step) return;
    e.preventDefault();
    // The first key shows the cursor where it is; later ones move it (Shift keeps the anchor).
    const next = cursor ? step : from;
    setCursor({ anchor: e.shiftKey && cursor ? cursor.anchor : next, current: next });
  };

  const cursorCell = focused && cursor ? cursor.current : null;
  const tip = hover && !drag ? describeCell(data, hover.cell) : null;
  const box = selected;
  return (
    <div
      ref={wrapRef}
      className="heatmap-grid"
      data-testid="heatmap-grid"
      data-columns={grid.columns}
      data-rows={grid.rows}
      data-left={layout.left}
      data-top={layout.top}
      data-cell-w={layout.cellW}
      data-cell-h={layout.cellH}
      data-selected={box ? `${box.col0}-${box.col1},${box.row0}-${box.row1}` : ''}
    >
      <div className="heatmap-grid__layers" style={{ width: layout.width, height: layout.height }}>
        <canvas ref={baseRef} className="heatmap-grid__base" aria-hidden="true" />
        <canvas
          ref={overlayRef}
          className="heatmap-grid__overlay"
          data-testid="heatmap-canvas"
          tabIndex={0}
          role="application"
          aria-label="Heatmap cells. Arrows move a cell cursor, Shift+arrows extend it, Enter selects, Escape clears."
          aria-describedby="heatmap-readout"
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={onPointerUp}
          onPointerCancel={() => setDrag(null)}
          onPointerLeave={() => setHover(null)}
          onKeyDown={onKeyDown}
          onFocus={() => setFocused(true)}
          onBlur={() => setFocused(false)}
        />
        {tip && hover ? (
          <div
            className="heatmap-tip"
            role="tooltip"
            data-testid="heatmap-tip"
            style={{
              left: Math.min(hover.x + 14, Math.max(0, layout.width - 260)),
              top: hover.y + 16,
            }}
          >
            {tip.map((line) => (
              <div key={line}>{line}</div>
            ))}
          </div>
        ) : null}
      </div>
      <p id="heatmap-readout" className="heatmap-readout small muted" aria-live="polite">
        {cursorCell ? describeCell(data, cursorCell).join(' · ') : 'Drag over cells to select those slices of every second, or focus the grid and use the arrow keys.'}
      </p>
    </div>
  );
}
