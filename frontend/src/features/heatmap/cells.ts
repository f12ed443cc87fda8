/** A heatmap response as a grid, and a cell of it in words (hover text, the keyboard readout). */
import { COUNT_UNITS, type HeatmapResponse } from './api';
import { formatColumn, formatHeat, formatOffsets, type Cell, type GridShape } from './grid';

export const gridOf = (d: HeatmapResponse): GridShape => ({
  firstSecond: d.first_second,
  columnSeconds: d.column_seconds,
  columns: d.columns,
  rows: d.rows,
  rowUs: d.row_us,
});

/** What a cell holds, in words: its seconds, its offsets within each second, its value. */
export function describeCell(d: HeatmapResponse, cell: Cell): string[] {
  const g = gridOf(d);
  const value = d.values[cell.col]?.[cell.row] ?? 0;
  const count = d.counts?.[cell.col]?.[cell.row];
  return [
    formatColumn(g, cell.col, d.wall_clock),
    `${formatOffsets(cell.row * g.rowUs, (cell.row + 1) * g.rowUs)} into ${g.columnSeconds === 1 ? 'the second' : 'each second'}`,
    formatHeat(value, d.unit) + (count !== undefined && d.unit === 'ns' ? ` in ${formatHeat(count, COUNT_UNITS[d.stream])}` : ''),
  ];
}

