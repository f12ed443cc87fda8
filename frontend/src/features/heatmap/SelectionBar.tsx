import { Link } from 'react-router';
import type { Selection } from '../../shared/selection';
import type { HeatmapResponse } from './api';
import { formatColumn, formatHeat, formatOffsets, rangeSelection, type CellRange } from './grid';
import { gridOf } from './cells';
import { diffHref, flameHref, type CellsLink } from './links';

interface Props {
  data: HeatmapResponse;
  selection: Selection;
  range: CellRange | null;
  link: CellsLink;
  onClear: () => void;
}

/** Sum of the cells in `range`, and of every cell in the same columns. */
function sums(data: HeatmapResponse, r: CellRange): { inside: number; columns: number } {
  let inside = 0;
  let columns = 0;
  for (let c = r.col0; c <= r.col1; c += 1) {
    const column = data.values[c] ?? [];
    column.forEach((v, row) => {
      columns += v;
      if (row >= r.row0 && row <= r.row1) inside += v;
    });
  }
  return { inside, columns };
}

/** What is selected, in words, and where it can go: a flame graph of it, or a diff against the rest. */
export function SelectionBar({ data, selection, range, link, onClear }: Props) {
  const g = gridOf(data);
  const w = selection.within;
  const seconds =
    range === null
      ? 'outside the columns shown'
      : range.col0 === range.col1
        ? formatColumn(g, range.col0, data.wall_clock)
        : `${formatColumn(g, range.col0, data.wall_clock)} → ${formatColumn(g, range.col1, data.wall_clock)} (${(range.col1 - range.col0 + 1) * g.columnSeconds} s)`;
  const rows = w === null ? 'whole seconds' : `${w.outside ? 'outside ' : ''}${formatOffsets(w.startUs, w.endUs)} of each second`;
  // Sums are exact only when the selection is whole cells of this grid (not one made at other rows).
  const cells = range ? rangeSelection(g, range) : null;
  const aligned =
    cells !== null &&
    cells.fromUs === selection.fromUs &&
    cells.toUs === selection.toUs &&
    (cells.within === null ? w === null : w !== null && !w.outside && cells.within.startUs === w.startUs && cells.within.endUs === w.endUs);
  const total = range && aligned ? sums(data, range) : null;
  const diff = diffHref(link);
  const flameLabel = data.stream === 'samples' || data.stream === 'off-cpu' ? 'Flame graph of these cells' : 'CPU flame graph of these slices';
  return (
    <div className="heatmap-selection" data-testid="heatmap-selection" role="region" aria-label="Selected cells">
      <div className="heatmap-selection__what">
        <strong>Selected:</strong> <span>{seconds}</span> · <span>{rows}</span>
        {total ? (
          <span className="muted">
            {' '}
            · {formatHeat(total.inside, data.unit)} of {formatHeat(total.columns, data.unit)} in these seconds
          </span>
        ) : null}
      </div>
      <div className="heatmap-selection__actions">
        <Link className="btn btn--small btn--primary" to={flameHref(link)} data-testid="heatmap-flame-link">
          {flameLabel}
        </Link>
        {diff ? (
          <Link className="btn btn--small" to={diff} data-testid="heatmap-diff-link">
            Diff: these cells vs the rest
          </Link>
        ) : null}
        <button type="button" className="btn btn--ghost btn--small" onClick={onClear} title="Esc">
          Clear selection
        </button>
      </div>
    </div>
  );
}
