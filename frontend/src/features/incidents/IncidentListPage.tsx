import { useQuery } from '@tanstack/react-query';
import { useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { EmptyState } from '../../shared/components/EmptyState';
import { ErrorBanner } from '../../shared/components/ErrorBanner';
import { useDocumentTitle } from '../../shared/hooks/useDocumentTitle';
import { useShortcutHelp, useSlashFocus } from '../../shared/hooks/useShortcuts';
import { useUrlText } from '../../shared/hooks/useUrlText';
import { shortcutFor } from '../../shared/shortcuts';
import { usePermissions } from '../auth/usePermissions';
import { ImportBundleButton } from '../bundle/ImportBundleButton';
import { IncidentTable } from './IncidentTable';
import { decodeListView, encodeListView, filterIncidents, nextSort, sortIncidents, type ListView, type SortKey } from './listView';
import { NewIncidentForm } from './NewIncidentForm';
import { incidentsQuery } from './queries';
import { INCIDENT_FILTER_FIELD_SHORTCUTS, INCIDENT_LIST_SHORTCUTS } from './shortcuts';

export function IncidentListPage() {
  useDocumentTitle('Incidents');
  const [params, setParams] = useSearchParams();
  const view = decodeListView(params);
  const incidents = useQuery(incidentsQuery());
  const [formOpen, setFormOpen] = useState(false);
  const can = usePermissions();
  const searchRef = useRef<HTMLInputElement>(null);
  useSlashFocus(searchRef, INCIDENT_LIST_SHORTCUTS);
  useShortcutHelp(INCIDENT_FILTER_FIELD_SHORTCUTS);

  const setView = (patch: Partial<ListView>) => {
    setParams(encodeListView({ ...view, ...patch }), { replace: true });
  };

  const query = useUrlText(view.q, (q) => setView({ q }), 150);

  const rows = useMemo(
    () => sortIncidents(filterIncidents(incidents.data ?? [], view.q), view.sort, view.dir),
    [incidents.data, view.q, view.sort, view.dir],
  );

  const total = incidents.data?.length ?? 0;

  return (
    <div className="stack">
      <div className="page-head">
        <div>
          <h1>Incidents</h1>
          <p className="muted">Latency and stall investigations, newest first. Open one to upload captures.</p>
        </div>
        <div className="row">
          {can.canRespond ? <ImportBundleButton /> : null}
          <button
            type="button"
            className="btn btn--primary"
            onClick={() => setFormOpen((o) => !o)}
            aria-expanded={formOpen}
            disabled={!can.canRespond}
            title={can.whyNot('respond') ?? undefined}
          >
            {formOpen ? 'Close' : 'New incident'}
          </button>
        </div>
      </div>

      {formOpen && can.canRespond ? <NewIncidentForm onCancel={() => setFormOpen(false)} /> : null}

      <div className="toolbar">
        <label className="search">
          <span className="visually-hidden">Search incidents</span>
          <input
            ref={searchRef}
            type="search"
            placeholder="Filter by title, summary, severity, #id"
            value={query.draft}
            onChange={(e) => query.setDraft(e.target.value)}
            onKeyDown={(e) => {
              if (shortcutFor(INCIDENT_FILTER_FIELD_SHORTCUTS, e)?.action === 'clear') {
                query.setNow('');
                e.currentTarget.blur();
              }
            }}
          />
          <kbd className="search__key">/</kbd>
        </label>
        {incidents.data ? (
          <span className="muted">
            {rows.length === total ? `${total} incidents` : `${rows.length} of ${total} incidents`}
          </span>
        ) : null}
      </div>

      {incidents.isError ? (
        <ErrorBanner title="Could not load incidents." error={incidents.error} onRetry={() => void incidents.refetch()} />
      ) : null}

      {incidents.isPending ? <p className="muted">Loading incidents…</p> : null}

      {incidents.data && total === 0 ? (
        <EmptyState title="No incidents yet">
          <p>
            Create one with <strong>New incident</strong>, then drag <code>perf script</code> output onto its page, or run{' '}
            <code>stallscope upload FILE --incident ID</code>.
          </p>
        </EmptyState>
      ) : null}

      {incidents.data && total > 0 && rows.length === 0 ? (
        <EmptyState title={`No incident matches “${view.q}”`}>
          <button type="button" className="btn" onClick={() => query.setNow('')}>
            Clear the filter
          </button>
        </EmptyState>
      ) : null}

      {rows.length > 0 ? (
        <IncidentTable
          incidents={rows}
          sort={view.sort}
          dir={view.dir}
          onSort={(key: SortKey) => setView(nextSort(view, key))}
        />
      ) : null}
    </div>
  );
}
