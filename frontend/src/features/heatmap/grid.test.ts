import { describe, expect, it } from 'vitest';
import {
  cellAtPoint,
  formatColumn,
  formatHeat,
  formatOffset,
  formatOffsets,
  formatSecond,
  moveCell,
  nearestCell,
  rangeBox,
  rangeOf,
  rangeSelection,
  selectionRange,
  type GridShape,
  type Layout,
} from './grid';

const T0 = 1_763_712_100; // 2025-11-21T08:01:40Z
const grid: GridShape = { firstSecond: T0, columnSeconds: 1, columns: 10, rows: 50, rowUs: 20_000 };
const layout: Layout = { left: 60, top: 10, cellW: 8, cellH: 4 };

describe('cells to the shared selection', () => {
  it('turns the first row of three seconds into from/to and within', () => {
    const sel = rangeSelection(grid, rangeOf({ col: 4, row: 0 }, { col: 2, row: 0 }));
    expect(sel.fromUs).toBe((T0 + 2) * 1e6);
    expect(sel.toUs).toBe((T0 + 5) * 1e6);
    expect(sel.within).toEqual({ startUs: 0, endUs: 20_000, outside: false });
  });

  it('drops within when the rows cover the whole second', () => {
    expect(rangeSelection(grid, { col0: 0, col1: 0, row0: 0, row1: 49 }).within).toBeNull();
  });

  it('uses the merged columns’ seconds', () => {
    const merged: GridShape = { ...grid, columnSeconds: 5 };
    const sel = rangeSelection(merged, { col0: 1, col1: 2, row0: 49, row1: 49 });
    expect([sel.fromUs, sel.toUs]).toEqual([(T0 + 5) * 1e6, (T0 + 15) * 1e6]);
    expect(sel.within).toEqual({ startUs: 980_000, endUs: 1_000_000, outside: false });
  });

  it('finds the cells of a selection again (round trip)', () => {
    const range = { col0: 3, col1: 6, row0: 2, row1: 4 };
    const sel = rangeSelection(grid, range);
    expect(selectionRange(grid, sel.fromUs, sel.toUs, sel.within)).toEqual(range);
  });

  it('clips selections to the grid and ignores ones that miss it', () => {
    expect(selectionRange(grid, (T0 - 100) * 1e6, (T0 + 2) * 1e6, null)).toEqual({ col0: 0, col1: 1, row0: 0, row1: 49 });
    expect(selectionRange(grid, (T0 + 50) * 1e6, (T0 + 60) * 1e6, null)).toBeNull();
    expect(selectionRange(grid, null, null, null)).toBeNull();
    // a partial-row window covers every row it touches
    expect(selectionRange(grid, null, null, { startUs: 10_000, endUs: 30_000, outside: true })).toEqual({
      col0: 0,
      col1: 9,
      row0: 0,
      row1: 1,
    });
  });
});

describe('pointer and keyboard', () => {
  it('maps points to cells and back to boxes', () => {
    expect(cellAtPoint(grid, layout, 60, 10)).toEqual({ col: 0, row: 0 });
    expect(cellAtPoint(grid, layout, 60 + 8 * 3 + 7.9, 10 + 4 * 49 + 3.9)).toEqual({ col: 3, row: 49 });
    expect(cellAtPoint(grid, layout, 59, 10)).toBeNull();
    expect(cellAtPoint(grid, layout, 60 + 80, 10)).toBeNull();
    expect(nearestCell(grid, layout, 1000, -5)).toEqual({ col: 9, row: 0 });
    expect(rangeBox(layout, { col0: 1, col1: 2, row0: 3, row1: 3 })).toEqual({ x: 68, y: 22, w: 16, h: 4 });
  });

  it('moves the cursor with arrows and stops at the edges', () => {
    expect(moveCell(grid, { col: 0, row: 0 }, 'ArrowRight')).toEqual({ col: 1, row: 0 });
    expect(moveCell(grid, { col: 0, row: 0 }, 'ArrowUp')).toEqual({ col: 0, row: 0 });
    expect(moveCell(grid, { col: 0, row: 48 }, 'PageDown')).toEqual({ col: 0, row: 49 });
    expect(moveCell(grid, { col: 3, row: 5 }, 'End')).toEqual({ col: 9, row: 5 });
    expect(moveCell(grid, { col: 3, row: 5 }, 'Enter')).toBeNull();
  });
});

describe('labels', () => {
  it('writes offsets in ms (or µs below one)', () => {
    expect(formatOffset(0)).toBe('0 ms');
    expect(formatOffset(20_000)).toBe('20 ms');
    expect(formatOffset(1_600)).toBe('1.6 ms');
    expect(formatOffset(250)).toBe('250 µs');
    expect(formatOffsets(0, 20_000)).toBe('0–20 ms');
    expect(formatOffsets(500, 1_000)).toBe('500 µs – 1 ms');
  });

  it('writes seconds as UTC, or says they are the capture’s own clock', () => {
    expect(formatSecond(T0, true)).toBe('2025-11-21 08:01:40 UTC');
    expect(formatSecond(100, false)).toBe('second 100 (capture clock)');
    expect(formatColumn({ ...grid, columnSeconds: 10 }, 1, true)).toBe('2025-11-21 08:01:50 UTC – 08:01:59 UTC (10 s)');
  });
});

describe('values', () => {
  it('writes durations as time and counts with their noun', () => {
    expect(formatHeat(5_500_000, 'ns')).toBe('5.5 ms');
    expect(formatHeat(1, 'calls')).toBe('1 call');
    expect(formatHeat(1204, 'samples')).toBe('1,204 samples');
  });
});
