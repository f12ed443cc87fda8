/** The series list: grouped by name, each series named by host and capture, with a search. */
import type { MetricSeries } from '../../api/types';
import { formatCount } from '../../shared/units';
import { groupSeries, metricText, sameMetric, seriesItemText, type SeriesGroup } from './seriesList';

interface Props {
  all: readonly MetricSeries[];
  search: string;
  onSearch: (text: string) => void;
  onSearchNow: (text: string) => void;
  chosen: readonly number[];
  onToggle: (id: number) => void;
  onAdd: (ids: number[]) => void;
}

export function SeriesPicker({ all, search, onSearch, onSearchNow, chosen, onToggle, onAdd }: Props) {
  const groups = groupSeries(all, search);
  return (
    <aside className="series-list" aria-label="Series">
      <input
        type="search"
        className="series-search"
        placeholder="Filter: name, label, host, capture"
        aria-label="Filter series"
        value={search}
        onChange={(e) => onSearch(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape') onSearchNow('');
        }}
      />
      {all.length > 0 && groups.length === 0 ? <p className="muted small">No series match.</p> : null}
      {groups.map((g) => (
        <Group key={g.name} group={g} all={all} open={groups.length <= 8 || g.series.some((s) => chosen.includes(s.id))} chosen={chosen} onToggle={onToggle} onAdd={onAdd} />
      ))}
    </aside>
  );
}

function Group({
  group,
  all,
  open,
  chosen,
  onToggle,
  onAdd,
}: {
  group: SeriesGroup;
  all: readonly MetricSeries[];
  open: boolean;
  chosen: readonly number[];
  onToggle: (id: number) => void;
  onAdd: (ids: number[]) => void;
}) {
  return (
    <details open={open}>
      <summary>
        <span className="mono">{group.name}</span>{' '}
        <span className="muted small">
          {group.unit ? `(${group.unit}) ` : ''}
          {group.series.length}
          {group.hosts > 1 ? ` on ${group.hosts} hosts` : ''}
        </span>
      </summary>
      <ul>
        {group.series.map((s) => {
          const same = sameMetric(all, s);
          const missing = same.filter((o) => !chosen.includes(o.id)).map((o) => o.id);
          return (
            <li key={s.id} className="series-row">
              <label className="series-item" title={`${s.name} · ${seriesItemText(s)}`}>
                <input type="checkbox" checked={chosen.includes(s.id)} onChange={() => onToggle(s.id)} />
                <span className="mono small series-item__text">{seriesItemText(s)}</span>
                <span className="muted small">{formatCount(s.points)} pts</span>
              </label>
              {same.length > 1 ? (
                <button
                  type="button"
                  className="btn btn--small btn--ghost series-row__same"
                  disabled={missing.length === 0}
                  aria-label={`Overlay ${metricText(s)} from every host and capture`}
                  title={`Add ${metricText(s)} from every host and capture (${same.length})`}
                  onClick={() => onAdd(missing)}
                >
                  all {same.length}
                </button>
              ) : null}
            </li>
          );
        })}
      </ul>
    </details>
  );
}
