import { useMemo, useState } from 'react';
import { formatValue } from '../../shared/units';
import type { DiffFunction } from './api';
import { DEFAULT_ORDER, nextOrder, relativeChange, sortFunctions, type TableOrder, type TableSort } from './table';

interface Props {
  functions: DiffFunction[];
  /** Functions the server knows of; the table holds the largest changes. */
  total: number;
  unit: string;
  scale: number;
  search: string;
  onPick: (name: string) => void;
}

const signed = (value: number, unit: string): string =>
  value === 0 ? '0' : `${value > 0 ? '+' : '−'}${formatValue(Math.abs(value), unit)}`;

const COLUMNS: { by: TableSort; label: string; title: string }[] = [
  { by: 'a', label: 'A total', title: 'A: time in or under the function (its own weight, not scaled)' },
  { by: 'b', label: 'B total', title: 'B: time in or under the function' },
  { by: 'total', label: 'Δ total', title: 'B − A scaled: change of the time in or under the function' },
  { by: 'self', label: 'Δ self', title: 'B − A scaled: change of the time in the function itself' },
];

/** Functions by change; a click on a name searches for it in the graph. */
export function DiffTable({ functions, total, unit, scale, search, onPick }: Props) {
  const [order, setOrder] = useState<TableOrder>(DEFAULT_ORDER);
  const [all, setAll] = useState(false);
  const sorted = useMemo(() => sortFunctions(functions, order), [functions, order]);
  const rows = all ? sorted : sorted.slice(0, ROWS_SHOWN);
  if (functions.length === 0) {
    return <p className="muted">No functions on either side.</p>;
  }
  return (
    <div className="table-scroll diff-table-wrap">
      <table className="table diff-table" data-testid="diff-table">
        <caption className="diff-table__caption small muted">
          {functions.length < total ? `The ${functions.length} largest changes of ${total} functions` : `${total} functions`} · total counts a
          function once per stack, however deep it recurses · Δ compares B with A{scale !== 1 ? ` scaled ×${Number(scale.toPrecision(3))}` : ''}
        </caption>
        <thead>
          <tr>
            <th scope="col">Function</th>
            {COLUMNS.map((c) => (
              <th
                key={c.by}
                scope="col"
                className="num"
                aria-sort={order.by === c.by ? (order.descending ? 'descending' : 'ascending') : 'none'}
                title={c.title}
              >
                <button type="button" className={`sort${order.by === c.by ? ' sort--active' : ''}`} onClick={() => setOrder(nextOrder(order, c.by))}>
                  {c.label}
                  <span className="sort__arrow" aria-hidden="true">
                    {order.by === c.by ? (order.descending ? '▼' : '▲') : '↕'}
                  </span>
                </button>
              </th>
            ))}
            <th scope="col" className="num" title="Δ total relative to A scaled">
              change
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((f) => (
            <tr key={f.name} className={search === f.name ? 'diff-table__row--picked' : undefined} data-testid="diff-row">
              <td className="wide">
                <button
                  type="button"
                  className="diff-table__name mono one-line"
                  title={`Highlight ${f.name} in the graph`}
                  onClick={() => onPick(search === f.name ? '' : f.name)}
                  aria-pressed={search === f.name}
                >
                  {f.name}
                </button>
              </td>
              <td className="num nowrap">{formatValue(f.total_a, unit)}</td>
              <td className="num nowrap">{formatValue(f.total_b, unit)}</td>
              <td className={`num nowrap ${tone(f.total_delta)}`} data-testid="delta-total">
                {signed(f.total_delta, unit)}
              </td>
              <td className={`num nowrap ${tone(f.self_delta)}`} data-testid="delta-self">
                {signed(f.self_delta, unit)}
              </td>
              <td className={`num nowrap ${tone(f.total_delta)}`}>{relativeChange(f.total_a, f.total_b, scale)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {sorted.length > ROWS_SHOWN ? (
        <button type="button" className="btn btn--small diff-table__more" onClick={() => setAll(!all)} aria-expanded={all}>
          {all ? `Show the first ${ROWS_SHOWN}` : `Show all ${sorted.length} rows`}
        </button>
      ) : null}
    </div>
  );
}

/** Rows shown before "Show all": the largest changes, by the current sort. */
const ROWS_SHOWN = 50;

const tone = (delta: number): string => (delta > 0 ? 'diff-grew' : delta < 0 ? 'diff-shrank' : 'muted');
