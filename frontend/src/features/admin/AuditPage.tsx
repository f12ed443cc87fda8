import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { EmptyState } from '../../shared/components/EmptyState';
import { ErrorBanner } from '../../shared/components/ErrorBanner';
import { Time } from '../../shared/components/Time';
import { useDocumentTitle } from '../../shared/hooks/useDocumentTitle';
import { localInputToUtcIso, toLocalInputValue } from '../../shared/time';
import type { AuditEntry } from './api';
import { NO_FILTERS, decodeAuditFilters, encodeAuditFilters, olderPage, type AuditFilters } from './auditFilters';
import { auditEntriesQuery } from './queries';

export function AuditPage() {
  useDocumentTitle('Audit log');
  const [params, setParams] = useSearchParams();
  const filters = decodeAuditFilters(params);
  const entries = useQuery(auditEntriesQuery(filters));
  const show = (f: AuditFilters) => setParams(encodeAuditFilters(f));
  const older = entries.data ? olderPage(filters, entries.data.map((e) => e.id)) : null;

  return (
    <div className="stack">
      <div className="page-head">
        <div>
          <h1>Audit log</h1>
          <p className="muted">Who created, changed, shared, exported or signed in, newest first.</p>
        </div>
      </div>
      {/* Keyed by the URL's filters, so the form shows them again after back/forward. */}
      <FilterForm key={params.toString()} filters={filters} onApply={show} />
      {entries.isError ? <ErrorBanner title="Could not read the audit log:" error={entries.error} onRetry={() => void entries.refetch()} /> : null}
      {entries.isPending ? <p className="muted">Loading the audit log…</p> : null}
      {entries.data?.length === 0 ? <EmptyState title="No entries match these filters" /> : null}
      {entries.data && entries.data.length > 0 ? <AuditTable entries={entries.data} /> : null}
      <div className="row">
        {filters.before !== null ? (
          <button type="button" className="btn btn--small" onClick={() => show({ ...filters, before: null })}>
            Newest
          </button>
        ) : null}
        {older ? (
          <button type="button" className="btn btn--small" onClick={() => show(older)}>
            Older entries
          </button>
        ) : null}
      </div>
    </div>
  );
}

function FilterForm({ filters, onApply }: { filters: AuditFilters; onApply: (f: AuditFilters) => void }) {
  const [draft, setDraft] = useState({
    ...filters,
    since: isoToInput(filters.since),
    until: isoToInput(filters.until),
  });
  const set = (patch: Partial<AuditFilters>) => setDraft((d) => ({ ...d, ...patch }));
  return (
    <form
      className="row"
      aria-label="Filter the audit log"
      onSubmit={(e) => {
        e.preventDefault();
        // New filters start again from the newest entry.
        onApply({
          ...draft,
          since: localInputToUtcIso(draft.since) ?? '',
          until: localInputToUtcIso(draft.until) ?? '',
          before: null,
        });
      }}
    >
      <label className="field">
        <span>Actor</span>
        <input name="actor" value={draft.actor} placeholder="user name" onChange={(e) => set({ actor: e.target.value })} />
      </label>
      <label className="field">
        <span>Action</span>
        <input name="action" value={draft.action} placeholder="create, change, login…" onChange={(e) => set({ action: e.target.value })} />
      </label>
      <label className="field">
        <span>Incident</span>
        <input name="incident" value={draft.incident} inputMode="numeric" pattern="\d*" placeholder="id" onChange={(e) => set({ incident: e.target.value })} />
      </label>
      <label className="field">
        <span>Since</span>
        <input name="since" type="datetime-local" value={draft.since} onChange={(e) => set({ since: e.target.value })} />
      </label>
      <label className="field">
        <span>Until</span>
        <input name="until" type="datetime-local" value={draft.until} onChange={(e) => set({ until: e.target.value })} />
      </label>
      <button type="submit" className="btn btn--primary">
        Filter
      </button>
      <button type="button" className="btn btn--ghost" onClick={() => onApply(NO_FILTERS)}>
        Clear
      </button>
    </form>
  );
}

function AuditTable({ entries }: { entries: AuditEntry[] }) {
  return (
    <table className="table" data-testid="audit-table">
      <thead>
        <tr>
          <th>When</th>
          <th>Who</th>
          <th>Action</th>
          <th>What</th>
          <th>Incident</th>
          <th>Detail</th>
          <th>Address</th>
        </tr>
      </thead>
      <tbody>
        {entries.map((e) => (
          <tr key={e.id} data-testid="audit-row">
            <td>
              <Time iso={e.at} />
            </td>
            <td>
              {e.actor_name} <span className="muted small">{e.actor_kind}</span>
            </td>
            <td>{e.action}</td>
            <td>
              {e.object_type}
              {e.object_id !== null ? <span className="muted"> #{e.object_id}</span> : null}
            </td>
            <td>{e.incident_id !== null ? <Link to={`/incidents/${e.incident_id}`}>#{e.incident_id}</Link> : <span className="muted">–</span>}</td>
            <td className="mono small">{detailText(e.detail)}</td>
            <td className="mono small">{e.address ?? <span className="muted">–</span>}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** A URL's ISO time as a datetime-local value ('' when absent or unreadable). */
function isoToInput(iso: string): string {
  const t = new Date(iso);
  return iso && !Number.isNaN(t.getTime()) ? toLocalInputValue(t) : '';
}

/** `name=viewer1 role=viewer`: short enough for a table cell, complete enough to read. */
function detailText(detail: Record<string, unknown>): string {
  return Object.entries(detail)
    .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join(' ');
}
