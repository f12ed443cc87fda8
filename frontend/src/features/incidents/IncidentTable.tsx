import { Link } from 'react-router';
import type { Incident } from '../../api/types';
import { SeverityBadge } from '../../shared/components/SeverityBadge';
import { Time } from '../../shared/components/Time';
import type { SortDir, SortKey } from './listView';

interface Props {
  incidents: Incident[];
  sort: SortKey;
  dir: SortDir;
  onSort: (key: SortKey) => void;
}

function SortHeader({ label, k, sort, dir, onSort, numeric = false }: { label: string; k: SortKey; numeric?: boolean } & Omit<Props, 'incidents'>) {
  const active = sort === k;
  return (
    <th aria-sort={active ? (dir === 'asc' ? 'ascending' : 'descending') : 'none'} className={numeric ? 'num' : undefined}>
      <button type="button" className={`sort${active ? ' sort--active' : ''}`} onClick={() => onSort(k)}>
        {label}
        <span aria-hidden="true" className="sort__arrow">
          {active ? (dir === 'asc' ? '▲' : '▼') : '↕'}
        </span>
      </button>
    </th>
  );
}

export function IncidentTable({ incidents, ...sortProps }: Props) {
  return (
    <table className="table">
      <thead>
        <tr>
          <SortHeader label="Severity" k="severity" {...sortProps} />
          <SortHeader label="Title" k="title" {...sortProps} />
          <SortHeader label="Started" k="started" {...sortProps} />
          <SortHeader label="Captures" k="captures" numeric {...sortProps} />
        </tr>
      </thead>
      <tbody>
        {incidents.map((i) => (
          <tr key={i.id}>
            <td className="shrink">
              <SeverityBadge severity={i.severity} />
            </td>
            <td className="wide">
              <Link to={`/incidents/${i.id}`} className="row-link">
                <span className="muted mono">#{i.id}</span> {i.title}
              </Link>
              {i.summary ? <div className="muted small clamp-1">{i.summary}</div> : null}
            </td>
            <td className="shrink">
              <Time iso={i.started_at} relative />
            </td>
            <td className="num shrink">{i.capture_count}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
