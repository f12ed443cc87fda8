import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useId, useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Breadcrumbs } from '../../shared/components/Breadcrumbs';
import { EmptyState } from '../../shared/components/EmptyState';
import { ErrorBanner } from '../../shared/components/ErrorBanner';
import { SelectionChips } from '../../shared/components/SelectionChips';
import { ViewTabs } from '../../shared/components/ViewTabs';
import { currentSearch } from '../../shared/currentSearch';
import { useCapturesLabel } from '../../shared/hooks/useCapturesLabel';
import { useDocumentTitle } from '../../shared/hooks/useDocumentTitle';
import { useShortcutHelp, useShortcuts } from '../../shared/hooks/useShortcuts';
import { keyLabels, shortcutFor } from '../../shared/shortcuts';
import { readSelection, selectionApiParams, writeSelection, type Selection } from '../../shared/selection';
import { afterNextPaint, measure } from '../../shared/timing';
import { formatCount, formatDurationNs, formatPercent } from '../../shared/units';
import { useSelectionCaptures } from '../captures/selectionCaptures';
import { RelevantFindings } from '../findings/RelevantFindings';
import { getThreads, STATES, type ThreadRow, type ThreadState } from './api';
import { LocksPanel } from './LocksPanel';
import { THREAD_FILTER_SHORTCUTS, THREAD_ROW_SHORTCUTS, THREADS_SHORTCUTS } from './shortcuts';
import { StateBar, StateLegend } from './StateBar';
import { ThreadDetail } from './ThreadDetail';
import { GROUPS, groupThreads, readThreadsView, STATE_LABELS, threadKey, writeThreadsView, type SortKey, type ThreadsViewState } from './threadsView';
import './threads.css';

const SHOWN_LIMIT = 500;

export function ThreadsPage() {
  const [params, setParams] = useSearchParams();
  const { selection, warnings } = useMemo(() => readSelection(params), [params]);
  const view = useMemo(() => readThreadsView(params), [params]);
  useDocumentTitle(selection.incident !== null ? `Threads · incident #${selection.incident}` : 'Threads');
  // Every parsed capture: the server picks the scheduler ones, and `perf trace` captures add their futex calls.
  const captures = useSelectionCaptures(selection, 'any');
  const named = useCapturesLabel(selection.incident, selection.captures);

  const setView = (patch: Partial<ThreadsViewState>, push = false) =>
    setParams(writeThreadsView(new URLSearchParams(currentSearch()), { ...readThreadsView(new URLSearchParams(currentSearch())), ...patch }), {
      replace: !push,
    });
  const setSelection = (patch: Partial<Selection>) => {
    const current = new URLSearchParams(currentSearch());
    setParams(writeSelection(current, { ...readSelection(current).selection, ...patch }), { replace: true });
  };

  if (selection.incident === null && selection.captures.length === 0) {
    return (
      <EmptyState title="No incident selected">
        <p>
          Open this view from an incident. <Link to="/">Incidents</Link>
        </p>
      </EmptyState>
    );
  }
  return (
    <div className="stack threads-page">
      <ViewTabs />
      <Breadcrumbs incident={selection.incident} trail={[{ label: selection.captures.length > 0 ? `thread states of ${named}` : 'thread states' }]} />
      <SelectionChips selection={selection} onClear={setSelection} />
      {warnings.map((w) => (
        <div key={w} className="banner banner--info">
          {w}
        </div>
      ))}
      {captures.error ? <ErrorBanner title="Could not load the incident's captures." error={captures.error} /> : null}
      {captures.pending ? (
        <p className="muted">Loading captures…</p>
      ) : captures.ids.length === 0 ? (
        <EmptyState title="No thread states to show">
          <p>
            Thread states come from scheduler captures (<code>perf record -e sched:sched_switch -e sched:sched_wakeup -g</code> then{' '}
            <code>perf script</code>, or the collector’s <code>--offcpu</code>) or the collector’s /proc sampler.
            {selection.incident !== null ? (
              <>
                {' '}
                <Link to={`/incidents/${selection.incident}`}>Upload to incident #{selection.incident}</Link>
              </>
            ) : null}
          </p>
        </EmptyState>
      ) : (
        <ThreadsTable selection={selection} captureIds={captures.ids} view={view} setView={setView} setSelection={setSelection} />
      )}
    </div>
  );
}

interface TableProps {
  selection: Selection;
  captureIds: number[];
  view: ThreadsViewState;
  setView: (patch: Partial<ThreadsViewState>, push?: boolean) => void;
  setSelection: (patch: Partial<Selection>) => void;
}

function ThreadsTable({ selection, captureIds, view, setView, setSelection }: TableProps) {
  const params = selectionApiParams(selection, captureIds);
  if (view.match) params.set('comm_regex', view.match);
  params.set('limit', String(SHOWN_LIMIT));
  const query = useQuery({
    queryKey: ['threads', params.toString()],
    queryFn: ({ signal }) => getThreads(params, signal),
    placeholderData: keepPreviousData,
  });
  const [timing, setTiming] = useState<number | null>(null);
  useEffect(() => {
    const received = query.data?.received;
    if (received === undefined) return;
    return afterNextPaint((at) => setTiming(measure('threads:render', received, at)));
  }, [query.data]);
  useShortcuts(THREADS_SHORTCUTS, {
    close: () => {
      if (view.thread === null) return false;
      setView({ thread: null, state: null });
    },
  });

  const data = query.data;
  useShortcutHelp(data && data.threads.length > 0 ? THREAD_ROW_SHORTCUTS : null);
  const groups = useMemo(() => (data ? groupThreads(data.threads, view.group, view.sort) : []), [data, view.group, view.sort]);
  const picked = data?.threads.find((t) => threadKey(t) === view.thread) ?? null;
  const search = currentSearch();

  return (
    <>
      <div className="threads-toolbar">
        <NameFilter key={view.match} applied={view.match} onApply={(match) => setView({ match })} />
        <label className="field">
          <span>Group by</span>
          <select value={view.group} onChange={(e) => setView({ group: e.target.value as ThreadsViewState['group'] })}>
            {GROUPS.map((g) => (
              <option key={g} value={g}>
                {g === 'thread' ? 'nothing (each thread)' : g === 'process' ? 'process' : 'thread name'}
              </option>
            ))}
          </select>
        </label>
        <div className="spacer" />
        <StateLegend />
      </div>

      {query.isError ? <ErrorBanner title="Could not load thread states." error={query.error} onRetry={() => void query.refetch()} /> : null}
      {data ? (
        <div className="threads-status small muted">
          <span data-testid="threads-source">
            {data.source === 'sched' ? 'From scheduler intervals (exact)' : data.source === 'proc-sampler' ? 'From the /proc sampler (ticks)' : 'No thread data'}
          </span>
          <span>
            {formatCount(data.threads.length)} of {formatCount(data.total_threads)} threads
          </span>
          {timing !== null && !query.isFetching ? <span data-testid="threads-timing">render {formatDurationNs(timing * 1e6)}</span> : null}
          {query.isFetching ? <span className="live-dot">loading…</span> : null}
        </div>
      ) : query.isPending ? (
        <p className="muted">Loading thread states…</p>
      ) : null}
      {data ? <RelevantFindings incident={selection.incident} hosts={selection.hosts} threads={data.threads} /> : null}
      {data?.notes.map((n) => (
        <div key={n} className="banner banner--info">
          {n}
        </div>
      ))}

      {picked ? (
        <ThreadDetail
          thread={picked}
          state={view.state}
          selection={selection}
          source={data?.source ?? 'none'}
          search={search}
          locks={data?.locks ?? []}
          onPick={(s) => setView({ state: s })}
          onClose={() => setView({ thread: null, state: null })}
        />
      ) : null}

      {data && data.threads.length > 0 ? (
        <table className="table threads-table" data-testid="threads-table">
          <thead>
            <tr>
              <SortHeader label="Thread" sortKey="name" view={view} setView={setView} />
              <SortHeader label="Wall" sortKey="wall" view={view} setView={setView} />
              <SortHeader label="Time in each state" sortKey="busy" view={view} setView={setView} wide />
              {STATES.map((s) => (
                <SortHeader key={s} label={SHORT[s]} title={STATE_LABELS[s]} sortKey={s} view={view} setView={setView} />
              ))}
              <SortHeader label="Sched p99" title="Scheduler latency, 99th percentile" sortKey="latency" view={view} setView={setView} />
            </tr>
          </thead>
          <tbody>
            {groups.map((g) =>
              view.group === 'thread' ? (
                <ThreadLine key={g.key} thread={g.total} view={view} setView={setView} setSelection={setSelection} />
              ) : (
                <GroupLines key={g.key} label={g.label} total={g.total} threads={g.threads} view={view} setView={setView} setSelection={setSelection} />
              ),
            )}
          </tbody>
        </table>
      ) : null}
      {data ? <LocksPanel locks={data.locks} onOpen={(captureId, tid) => setView({ thread: `${captureId}:${tid}`, state: null }, true)} /> : null}
    </>
  );
}

/**
 * The thread name filter: a regular expression the server applies, so it is sent on Enter (or on
 * leaving the field), not at every keystroke: each one would run the breakdown again, and a pattern
 * half typed (`^pg(`) is often not a valid one. The hint says so, louder while an edit is unsent.
 */
function NameFilter({ applied, onApply }: { applied: string; onApply: (match: string) => void }) {
  const [draft, setDraft] = useState(applied);
  const hintId = useId();
  useShortcutHelp(THREAD_FILTER_SHORTCUTS);
  const pending = draft.trim() !== applied;
  const keys = THREAD_FILTER_SHORTCUTS.shortcuts.flatMap(keyLabels).join(' or ');
  return (
    <label className="field">
      <span>Thread name (regex)</span>
      <span className="threads-filter">
        <input
          value={draft}
          placeholder="e.g. ^postgres"
          aria-label="Thread name filter (regular expression)"
          aria-describedby={hintId}
          data-testid="thread-filter"
          onChange={(e) => setDraft(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (shortcutFor(THREAD_FILTER_SHORTCUTS, e)?.action === 'apply') onApply(draft.trim());
          }}
          onBlur={() => onApply(draft.trim())}
        />
        <small id={hintId} className={pending ? 'threads-filter__hint threads-filter__hint--pending' : 'threads-filter__hint'} data-testid="thread-filter-hint">
          {pending ? `Press ${keys} to apply` : `${keys} to apply`}
        </small>
      </span>
    </label>
  );
}

const SHORT: Record<ThreadState, string> = {
  running: 'Run',
  runnable: 'Runnable',
  sleeping: 'S',
  uninterruptible: 'D',
  other: 'Other',
  unknown: 'Unknown',
};

function SortHeader(props: { label: string; title?: string; sortKey: SortKey; view: ThreadsViewState; setView: TableProps['setView']; wide?: boolean }) {
  const active = props.view.sort === props.sortKey;
  return (
    <th className={props.wide ? 'threads-table__bar' : undefined} aria-sort={active ? 'descending' : 'none'} title={props.title}>
      <button type="button" className="th-sort" onClick={() => props.setView({ sort: props.sortKey })}>
        {props.label}
        {active ? ' ▾' : ''}
      </button>
    </th>
  );
}

interface LineProps {
  thread: ThreadRow;
  view: ThreadsViewState;
  setView: TableProps['setView'];
  setSelection: TableProps['setSelection'];
}

function ThreadLine({ thread, view, setView }: LineProps) {
  const key = threadKey(thread);
  const open = (state: ThreadState | null) => setView({ thread: key, state }, true);
  const selected = view.thread === key;
  return (
    <tr
      className={selected ? 'is-selected' : undefined}
      tabIndex={0}
      data-testid="thread-row"
      data-tid={thread.tid}
      data-capture={thread.capture_id}
      onKeyDown={(e) => {
        if (e.target !== e.currentTarget) return;
        const action = shortcutFor(THREAD_ROW_SHORTCUTS, e)?.action;
        if (action === 'open') open(view.state);
        if (action === 'next') (e.currentTarget.nextElementSibling as HTMLElement | null)?.focus();
        if (action === 'previous') (e.currentTarget.previousElementSibling as HTMLElement | null)?.focus();
      }}
    >
      <td>
        <button type="button" className="linklike" onClick={() => open(null)}>
          {thread.comm}
        </button>{' '}
        <span className="muted small" title={thread.pid === null ? 'pid unknown: the capture prints thread ids only' : undefined}>
          {thread.pid ?? '?'}/{thread.tid}
          {thread.host ? ` · ${thread.host}` : ''}
        </span>
      </td>
      <td className="num">{formatDurationNs(thread.wall_ns)}</td>
      <td className="threads-table__bar">
        <StateBar thread={thread} onPick={open} picked={selected ? view.state : null} />
      </td>
      {STATES.map((s) => (
        <td key={s} className="num">
          {thread.states[s] > 0 ? formatPercent(thread.states[s] / Math.max(1, thread.wall_ns)) : ''}
        </td>
      ))}
      <td className="num">{thread.latency.p99_ns !== null ? formatDurationNs(thread.latency.p99_ns) : ''}</td>
    </tr>
  );
}

function GroupLines({ label, total, threads, ...rest }: Omit<LineProps, 'thread'> & { label: string; total: ThreadRow; threads: ThreadRow[] }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <tr className="threads-table__group">
        <td>
          <button type="button" className="linklike" aria-expanded={open} onClick={() => setOpen(!open)}>
            {open ? '▾' : '▸'} {label}
          </button>
        </td>
        <td className="num">{formatDurationNs(total.wall_ns)}</td>
        <td className="threads-table__bar">
          <StateBar thread={total} picked={null} />
        </td>
        {STATES.map((s) => (
          <td key={s} className="num">
            {total.states[s] > 0 ? formatPercent(total.states[s] / Math.max(1, total.wall_ns)) : ''}
          </td>
        ))}
        <td />
      </tr>
      {open ? threads.map((t) => <ThreadLine key={threadKey(t)} thread={t} {...rest} />) : null}
    </>
  );
}
