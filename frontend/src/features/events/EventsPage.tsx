import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { EVENT_KINDS, type TraceEvent } from '../../api/types';
import { Breadcrumbs } from '../../shared/components/Breadcrumbs';
import { EmptyState } from '../../shared/components/EmptyState';
import { ErrorBanner } from '../../shared/components/ErrorBanner';
import { currentSearch } from '../../shared/currentSearch';
import { useCapturesLabel } from '../../shared/hooks/useCapturesLabel';
import { useDocumentTitle } from '../../shared/hooks/useDocumentTitle';
import { useShortcutHelp } from '../../shared/hooks/useShortcuts';
import { useUrlText } from '../../shared/hooks/useUrlText';
import { shortcutFor } from '../../shared/shortcuts';
import { formatCount } from '../../shared/units';
import { EVENT_KIND_LABELS, eventDuration, eventTimeUtc } from './eventFormat';
import { decodeEventsView, encodeEventsView, EVENTS_PAGE_SIZE, type EventSort, type EventsViewState } from './eventsView';
import { eventsQuery } from './queries';
import { EVENT_ROW_SHORTCUTS } from './shortcuts';
import { StackPanel } from './StackPanel';
import './events.css';

export function EventsPage() {
  const [params, setParams] = useSearchParams();
  const view = useMemo(() => decodeEventsView(params), [params]);
  useDocumentTitle(view.incident !== null ? `Events · incident #${view.incident}` : 'Events');
  const setView = (patch: Partial<EventsViewState>) =>
    setParams(encodeEventsView({ ...decodeEventsView(currentSearch()), ...patch }), { replace: true });

  if (view.captures.length === 0) {
    return (
      <EmptyState title="No captures selected">
        <p>
          Open the events table from a capture on an incident page. <Link to="/">Incidents</Link>
        </p>
      </EmptyState>
    );
  }
  return <EventsView view={view} setView={setView} />;
}

function EventsView({ view, setView }: { view: EventsViewState; setView: (patch: Partial<EventsViewState>) => void }) {
  const q = {
    captures: [...view.captures].sort((a, b) => a - b),
    kind: view.kind ?? undefined,
    name: view.name || undefined,
    sort: view.sort,
    descending: view.descending,
    limit: EVENTS_PAGE_SIZE,
    offset: view.page * EVENTS_PAGE_SIZE,
  };
  const events = useQuery(eventsQuery(q));
  const named = useCapturesLabel(view.incident, view.captures);
  const name = useUrlText(view.name, (text) => setView({ name: text.trim(), page: 0 }), 400);
  const [selected, setSelected] = useState<TraceEvent | null>(null);
  const total = events.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / EVENTS_PAGE_SIZE));
  const rows = events.data?.events ?? [];
  const offcpu = view.kind === 'off-cpu' || rows.some((e) => e.kind === 'off-cpu');
  useShortcutHelp(rows.length > 0 ? EVENT_ROW_SHORTCUTS : null);

  const sortBy = (sort: EventSort) =>
    setView(sort === view.sort ? { descending: !view.descending, page: 0 } : { sort, descending: true, page: 0 });
  const sortHeader = (sort: EventSort, label: string, className: string) => {
    const active = view.sort === sort;
    return (
      <th className={className} aria-sort={active ? (view.descending ? 'descending' : 'ascending') : 'none'}>
        <button type="button" className="sort-button" onClick={() => sortBy(sort)}>
          {label}
          <span aria-hidden="true">{active ? (view.descending ? ' ▾' : ' ▴') : ''}</span>
        </button>
      </th>
    );
  };

  return (
    <div className="stack events-page">
      <Breadcrumbs incident={view.incident} trail={[{ label: `events of ${named}` }]} />

      <div className="filters" role="group" aria-label="Filters">
        <label className="field">
          <span>Kind</span>
          <select value={view.kind ?? ''} onChange={(e) => setView({ kind: e.target.value || null, page: 0 })}>
            <option value="">all kinds</option>
            {EVENT_KINDS.map((k) => (
              <option key={k} value={k}>
                {EVENT_KIND_LABELS[k] ?? k}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>Name (exact)</span>
          <input
            className="mono"
            placeholder="futex"
            value={name.draft}
            onChange={(e) => name.setDraft(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') name.setNow(name.draft);
              if (e.key === 'Escape') name.setNow('');
            }}
          />
        </label>
        <div className="spacer" />
        <span className="muted small events-count" data-testid="events-total">
          {events.data ? `${formatCount(total)} events` : ''}
          {events.isFetching ? ' · loading…' : ''}
        </span>
      </div>

      {events.isError ? <ErrorBanner title="Could not load events." error={events.error} onRetry={() => void events.refetch()} /> : null}

      {events.data && total === 0 ? (
        <EmptyState title={view.kind || view.name ? 'No events match these filters' : 'These captures hold no events'}>
          <p>
            Events come from tracing captures: syscalls from <code>perf trace</code>, off-CPU intervals from{' '}
            <code>perf sched record</code> + <code>perf script</code>, page faults from SystemTap, functions and tracepoints from
            ftrace. CPU-sample captures (<code>perf record</code>) open as flame graphs instead.
          </p>
          {view.kind || view.name ? (
            <button type="button" className="btn" onClick={() => setView({ kind: null, name: '', page: 0 })}>
              Clear filters
            </button>
          ) : null}
        </EmptyState>
      ) : null}

      {rows.length > 0 ? (
        <div className={selected ? 'events-layout events-layout--detail' : 'events-layout'}>
          <div className="table-scroll">
            <table className="table events" data-testid="events-table">
              <thead>
                <tr>
                  {sortHeader('time', 'Time (UTC)', 'nowrap')}
                  {sortHeader('duration', 'Duration', 'num nowrap')}
                  <th>Thread</th>
                  <th>Name</th>
                  <th>{offcpu ? 'State / waker' : 'Args'}</th>
                  <th>Result</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((e, i) => (
                  <tr
                    key={`${e.capture_id}-${e.ts}-${e.tid ?? ''}-${i}`}
                    className={`event-row${selected === e ? ' event-row--selected' : ''}`}
                    data-testid="event-row"
                    data-duration-ns={e.duration_ns ?? ''}
                    tabIndex={0}
                    aria-selected={selected === e}
                    onClick={() => setSelected(e)}
                    onKeyDown={(k) => {
                      if (shortcutFor(EVENT_ROW_SHORTCUTS, k)?.action === 'open') {
                        k.preventDefault();
                        setSelected(e);
                      }
                    }}
                  >
                    <td className="mono nowrap small">{eventTimeUtc(e.ts)}</td>
                    <td
                      className={`num nowrap${e.duration_ns === null ? ' muted' : ''}`}
                      data-testid="event-duration"
                      title={e.duration_ns === null ? 'No closing event was seen' : `${formatCount(e.duration_ns)} ns`}
                    >
                      {eventDuration(e.duration_ns)}
                    </td>
                    <td className="nowrap">
                      <span className="mono truncate" title={e.comm}>
                        {e.comm}
                      </span>
                      <span className="muted small"> {e.tid ?? ''}</span>
                    </td>
                    <td className="mono nowrap">{e.name}</td>
                    <td className="args-cell">
                      {e.kind === 'off-cpu' ? (
                        <span className="mono">
                          {e.state ?? '?'}
                          {e.waker_tid !== null ? <span className="muted"> woken by tid {e.waker_tid}</span> : null}
                        </span>
                      ) : (
                        <span className="truncate mono" title={e.args ?? ''}>
                          {e.args ?? ''}
                        </span>
                      )}
                    </td>
                    <td className="mono nowrap">{e.result ?? ''}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {selected ? <StackPanel key={`${selected.capture_id}-${selected.ts}-${selected.tid ?? ''}`} event={selected} onClose={() => setSelected(null)} /> : null}
        </div>
      ) : events.isPending ? (
        <p className="muted">Loading events…</p>
      ) : null}

      {total > EVENTS_PAGE_SIZE ? (
        <nav className="pager" aria-label="Pages">
          <button type="button" className="btn btn--small" disabled={view.page === 0} onClick={() => setView({ page: view.page - 1 })}>
            ‹ Previous
          </button>
          <span className="small">
            {formatCount(view.page * EVENTS_PAGE_SIZE + 1)}–{formatCount(Math.min(total, (view.page + 1) * EVENTS_PAGE_SIZE))} of{' '}
            {formatCount(total)} · page {view.page + 1} of {formatCount(pages)}
          </span>
          <button
            type="button"
            className="btn btn--small"
            disabled={view.page + 1 >= pages}
            onClick={() => setView({ page: view.page + 1 })}
          >
            Next ›
          </button>
        </nav>
      ) : null}
      <p className="muted small">Click a row (or focus it and press Enter) to see its stack.</p>
    </div>
  );
}
