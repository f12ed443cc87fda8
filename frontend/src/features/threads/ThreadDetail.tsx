import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { ErrorBanner } from '../../shared/components/ErrorBanner';
import { selectionApiParams, type Selection } from '../../shared/selection';
import { formatCount, formatDurationNs, formatPercent } from '../../shared/units';
import { getStrip, type StateSource, type ThreadRow, type ThreadState } from './api';
import { StateBar } from './StateBar';
import { StateStrip } from './StateStrip';
import { STATE_LABELS, stacksHref } from './threadsView';

const STRIP_BUCKETS = 1000;

interface Props {
  thread: ThreadRow;
  state: ThreadState | null;
  selection: Selection;
  source: StateSource;
  search: string;
  onPick: (s: ThreadState) => void;
  onClose: () => void;
}

/** One thread: its state strip, the picked state's time and blocking stack, latency and wakers. */
export function ThreadDetail({ thread, state, selection, source, search, onPick, onClose }: Props) {
  const params = selectionApiParams({ ...selection, pid: null, comm: null, tid: null }, [thread.capture_id]);
  params.set('tid', String(thread.tid));
  params.set('buckets', String(STRIP_BUCKETS));
  const strip = useQuery({ queryKey: ['threads', 'strip', params.toString()], queryFn: ({ signal }) => getStrip(params, signal) });
  const segments = strip.data?.segments ?? [];
  const fromUs = selection.fromUs ?? segments[0]?.startUs ?? 0;
  const toUs = selection.toUs ?? segments.at(-1)?.endUs ?? fromUs + 1;
  const top = state ? thread.top_stacks[state] : undefined;
  const href = state ? stacksHref(search, thread, state, source) : null;
  const lat = thread.latency;

  return (
    <section className="thread-detail stack stack--tight" aria-label={`Thread ${thread.comm} ${thread.tid}`} data-testid="thread-detail">
      <div className="section-head">
        <h2>
          {thread.comm}{' '}
          <span className="muted">
            pid {thread.pid ?? '?'} · tid {thread.tid}
            {thread.host ? ` · ${thread.host}` : ''}
          </span>
        </h2>
        <div className="spacer" />
        <button type="button" className="btn btn--small btn--ghost" onClick={onClose} aria-label="Close thread details">
          Close (Esc)
        </button>
      </div>
      <StateBar thread={thread} onPick={onPick} picked={state} />
      {strip.isError ? <ErrorBanner title="Could not load the state strip." error={strip.error} /> : null}
      {segments.length > 0 ? <StateStrip segments={segments} fromUs={fromUs} toUs={toUs} /> : strip.isPending ? <p className="muted small">Loading the state strip…</p> : null}

      {state ? (
        <div className="thread-detail__state" data-testid="thread-state-detail">
          <strong>{STATE_LABELS[state]}</strong>: {formatDurationNs(thread.states[state])} ({formatPercent(thread.wall_ns ? thread.states[state] / thread.wall_ns : 0)} of{' '}
          {formatDurationNs(thread.wall_ns)})
          {top ? (
            <div className="stack-frames">
              <div className="muted small">
                Longest-blocking stack: {formatDurationNs(top.ns)}, {formatPercent(top.share)} of this state (leaf first)
              </div>
              <ol className="mono small">
                {[...top.frames].reverse().slice(0, 16).map((f, i) => (
                  <li key={`${i}-${f}`}>{f}</li>
                ))}
              </ol>
            </div>
          ) : state === 'unknown' ? (
            <p className="muted small">No event covers this time: intervals left open when the capture ended, or switches perf did not record.</p>
          ) : null}
          {href ? (
            <Link className="btn btn--small" to={href} data-testid="state-stacks-link">
              {state === 'running' ? 'CPU flame graph of this thread' : `Off-CPU flame graph: ${STATE_LABELS[state]}`}
            </Link>
          ) : null}
        </div>
      ) : (
        <p className="muted small">Click a part of the bar for that state’s stacks.</p>
      )}

      {source === 'sched' ? (
        <div className="thread-detail__facts small">
          <div>
            <strong>Scheduler latency</strong> (woken → on a CPU), {formatCount(lat.count)} waits: p50 {fmt(lat.p50_ns)} · p90 {fmt(lat.p90_ns)} · p99{' '}
            {fmt(lat.p99_ns)} · max {fmt(lat.max_ns)}
          </div>
          <div>
            <strong>Woken by</strong>:{' '}
            {thread.wakers.length === 0
              ? 'no wakeups recorded'
              : thread.wakers.map((w) => `${w.tid === 0 ? 'an interrupt on an idle CPU' : `${w.comm} ${w.tid ?? '?'}`} ×${w.wakeups}`).join(', ')}
          </div>
        </div>
      ) : null}
    </section>
  );
}

const fmt = (ns: number | null): string => (ns === null ? '–' : formatDurationNs(ns));
