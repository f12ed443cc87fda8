import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { EmptyState } from '../../shared/components/EmptyState';
import { ErrorBanner } from '../../shared/components/ErrorBanner';
import { Time } from '../../shared/components/Time';
import { useDocumentTitle } from '../../shared/hooks/useDocumentTitle';
import { formatBytes } from '../../shared/units';
import type { TrashedCapture, TrashedIncident } from './api';
import { purgeQuestion } from './confirmations';
import { trashQuery, useTrashAction, type TrashAction } from './queries';
import './lifecycle.css';

/** Admins: what is in the trash, when each goes for good, restore or purge now. */
export function TrashPage() {
  useDocumentTitle('Trash');
  const trash = useQuery(trashQuery());
  const act = useTrashAction();
  const busy = (action: TrashAction['kind'], id: number) => act.isPending && act.variables.kind === action && act.variables.id === id;
  const purge = (action: TrashAction, what: string) => {
    if (window.confirm(purgeQuestion(what))) act.mutate(action);
  };

  return (
    <div className="stack">
      <div className="page-head">
        <div>
          <h1>Trash</h1>
          <p className="muted">
            Deleted incidents and captures, hidden everywhere until restored.
            {trash.data ? ` Each is purged for good ${trash.data.trash_days} days after it was deleted.` : ''}{' '}
            <Link to="/admin/retention">Retention…</Link>
          </p>
        </div>
      </div>
      {act.isError ? <ErrorBanner title="Could not do that:" error={act.error} /> : null}
      {trash.isError ? <ErrorBanner title="Could not load the trash:" error={trash.error} onRetry={() => void trash.refetch()} /> : null}
      {trash.isPending ? <p className="muted">Loading the trash…</p> : null}
      {trash.data && trash.data.incidents.length === 0 && trash.data.captures.length === 0 ? <EmptyState title="The trash is empty" /> : null}

      {trash.data && trash.data.incidents.length > 0 ? (
        <section className="stack stack--tight">
          <h2>Incidents</h2>
          <table className="table" data-testid="trash-incidents">
            <thead>
              <tr>
                <th>Incident</th>
                <th>Captures</th>
                <th>Deleted</th>
                <th>Purged for good</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {trash.data.incidents.map((i: TrashedIncident) => (
                <tr key={i.id} data-testid="trash-incident" data-incident-id={i.id}>
                  <td>
                    <span className="muted mono">#{i.id}</span> {i.title}
                  </td>
                  <td className="num">{i.capture_count}</td>
                  <TrashTail
                    item={i}
                    restoring={busy('restore-incident', i.id)}
                    purging={busy('purge-incident', i.id)}
                    disabled={act.isPending}
                    onRestore={() => act.mutate({ kind: 'restore-incident', id: i.id })}
                    onPurge={() => purge({ kind: 'purge-incident', id: i.id }, `incident #${i.id} “${i.title}” and its ${i.capture_count} capture(s)`)}
                  />
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      ) : null}

      {trash.data && trash.data.captures.length > 0 ? (
        <section className="stack stack--tight">
          <h2>Captures</h2>
          <table className="table" data-testid="trash-captures">
            <thead>
              <tr>
                <th>Capture</th>
                <th>Of incident</th>
                <th>Size</th>
                <th>Deleted</th>
                <th>Purged for good</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {trash.data.captures.map((c: TrashedCapture) => (
                <tr key={c.id} data-testid="trash-capture" data-capture-id={c.id}>
                  <td>
                    <span className="muted mono">#{c.id}</span> <span className="mono">{c.filename}</span>
                  </td>
                  <td>
                    <Link to={`/incidents/${c.incident_id}`}>
                      #{c.incident_id} {c.incident_title}
                    </Link>
                  </td>
                  <td className="num nowrap">{formatBytes(c.size_bytes)}</td>
                  <TrashTail
                    item={c}
                    restoring={busy('restore-capture', c.id)}
                    purging={busy('purge-capture', c.id)}
                    disabled={act.isPending}
                    onRestore={() => act.mutate({ kind: 'restore-capture', id: c.id })}
                    onPurge={() => purge({ kind: 'purge-capture', id: c.id }, `capture #${c.id} (${c.filename})`)}
                  />
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      ) : null}
    </div>
  );
}

interface TailProps {
  item: { deleted_at: string; purge_after: string };
  restoring: boolean;
  purging: boolean;
  disabled: boolean;
  onRestore: () => void;
  onPurge: () => void;
}

/** The cells every trashed row ends with: when it was deleted, when it goes for good, Restore and Purge. */
function TrashTail({ item, restoring, purging, disabled, onRestore, onPurge }: TailProps) {
  return (
    <>
      <td>
        <Time iso={item.deleted_at} relative />
      </td>
      <td>
        <Time iso={item.purge_after} relative />
      </td>
      <td className="actions">
        <button type="button" className="btn btn--small" disabled={disabled} onClick={onRestore}>
          {restoring ? 'Restoring…' : 'Restore'}
        </button>
        <button type="button" className="btn btn--small btn--trash" disabled={disabled} onClick={onPurge}>
          {purging ? 'Purging…' : 'Purge now…'}
        </button>
      </td>
    </>
  );
}
