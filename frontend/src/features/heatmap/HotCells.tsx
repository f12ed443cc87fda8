import type { HeatmapResponse } from './api';
import { formatColumn, formatHeat, formatOffsets, sameRange, type CellRange } from './grid';
import { gridOf } from './cells';

interface Props {
  data: HeatmapResponse;
  selected: CellRange | null;
  onSelect: (range: CellRange) => void;
}

/** The hottest cells, as buttons that select them. */
export function HotCells({ data, selected, onSelect }: Props) {
  if (data.hot.length === 0) return null;
  const g = gridOf(data);
  return (
    <section className="heatmap-hot" aria-labelledby="heatmap-hot-title">
      <h2 id="heatmap-hot-title" className="heatmap-side__title">
        Hottest cells
      </h2>
      <ol className="heatmap-hot__list">
        {data.hot.map((h) => {
          const range = { col0: h.column, col1: h.column, row0: h.row, row1: h.row };
          const active = sameRange(selected, range);
          return (
            <li key={`${h.column}:${h.row}`}>
              <button
                type="button"
                className={`heatmap-hot__cell${active ? ' heatmap-hot__cell--active' : ''}`}
                data-testid="hot-cell"
                data-column={h.column}
                data-row={h.row}
                aria-pressed={active}
                onClick={() => onSelect(range)}
              >
                <span className="heatmap-hot__value">{formatHeat(h.value, data.unit)}</span>
                <span className="heatmap-hot__where">
                  {formatOffsets(h.offset_start_us, h.offset_end_us)} · {formatColumn(g, h.column, data.wall_clock)}
                </span>
              </button>
            </li>
          );
        })}
      </ol>
    </section>
  );
}
