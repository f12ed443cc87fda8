import { describe, expect, it } from 'vitest';
import { columnLabels, layoutFor, MARGIN } from './draw';
import type { GridShape } from './grid';

const T0 = 1_763_712_100; // 08:01:40 UTC
const grid = (columns: number, columnSeconds = 1): GridShape => ({ firstSecond: T0, columnSeconds, columns, rows: 50, rowUs: 20_000 });

describe('layout', () => {
  it('caps cell width for short captures and fits long ones', () => {
    expect(layoutFor(grid(10), 1600).cellW).toBe(80);
    const wide = layoutFor(grid(600), 1280);
    expect(wide.cellW).toBeCloseTo((1280 - MARGIN.left - MARGIN.right) / 600);
    expect(wide.width).toBeLessThanOrEqual(1280);
    expect(layoutFor(grid(10), 1600).cellH).toBe(9);
  });
});

describe('column labels', () => {
  it('names the first and last seconds and steps between them', () => {
    const labels = columnLabels(grid(30), 40, true);
    expect(labels[0]).toEqual({ col: 0, text: '08:01:40' });
    expect(labels.at(-1)).toEqual({ col: 29, text: '08:02:09' });
    expect(labels.slice(1, -1).map((l) => l.text)).toEqual(['+5 s', '+10 s', '+15 s', '+20 s', '+25 s']);
  });

  it('uses the capture clock’s seconds when times are not wall-clock', () => {
    expect(columnLabels({ ...grid(3), firstSecond: 100 }, 48, false).map((l) => l.text)).toEqual(['100 s', '102 s']);
  });

  it('labels merged columns by their seconds', () => {
    const labels = columnLabels(grid(100, 10), 12, true);
    expect(labels[1]).toEqual({ col: 12, text: '+120 s' });
  });
});
