import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { ErrorBanner } from '../../shared/components/ErrorBanner';
import { selectionApiParams, type Selection } from '../../shared/selection';
import { formatCount, formatDurationNs, formatPercent } from '../../shared/units';
import { getStrip, type Lock, type StateSource, type ThreadRow, type ThreadState, type TopStack } from './api';
import { StateBar } from './StateBar';
import { StateStrip } from './StateStrip';
import { STATE_LABELS, inferredShare, lockLabel, locksOf, stacksHref } from './threadsView';

const STRIP_BUCKETS = 1000;
const FRAMES_SHOWN = 16;

interface Props {
  thread: ThreadRow;
  state: ThreadState | null;
  selection: Selection;
  source: StateSource;
  search: string;
  locks: Lock[];
  onPick: (s: ThreadState) => void;
  onClose: () => void;
}

/** One thread: its state strip, the picked state's time and blocking stacks, its locks, latency and wakers. */
export function ThreadDetail({ thread, state, selection, source, search, locks, onPick, onClose }: Props) {
  const params = selectionApiParams({ ...selection, pid: null, comm: null, tid: null }, [thread.capture_id]);
  params.set('tid', String(thread.tid));
  params.set('comm', thread.comm);
  params.set('buckets', String(STRIP_BUCKETS));
  const strip = useQuery({ queryKey: ['threads', 'strip', params.toString()], queryFn: ({ signal }) => getStrip(params, signal) });
  const segments = strip.data?.segments ?? [];
  const fromUs = selection.fromUs ?? segments[0]?.startUs ?? 0;
  const toUs = selection.toUs ?? segments.at(-1)?.endUs ?? fromUs + 1;
  const tops = state ? (thread.top_stacks[state] ?? []) : [];
  const href = state ? stacksHref(search, thread, state, source) : null;
  const lat = thread.latency;
  const waits = locksOf(locks, thread);
  const inferred = inferredShare(thread);

  return (
    <section className="thread-detail stack stack--tight" aria-label={`Thread ${thread.comm} ${thread.tid}`} data-testid="thread-detail">
      <div className="section-head">
        <h2>
          {thread.comm}{' '}
          <span className="muted" data-testid="thread-ids">
            {thread.pid !== null ? `pid ${thread.pid}` : <span title="The capture prints thread ids only (perf script's default header)">pid unknown</span>} · tid{' '}
            {thread.tid}
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
      {inferred > 0 ? (
        <p className="muted small" data-testid="inferred-note">
          {formatPercent(inferred)} of this thread’s time ({formatCount(thread.inferred_intervals)} intervals) had no closing event: each ends where the thread was next seen
          running (its next sample, switch-out or an event it caused), hatched above. An upper bound on those waits.
        </p>
      ) : null}

      {state ? (
        <div className="thread-detail__state" data-testid="thread-state-detail">
          <strong>{STATE_LABELS[state]}</strong>: {formatDurationNs(thread.states[state])} ({formatPercent(thread.wall_ns ? thread.states[state] / thread.wall_ns : 0)} of{' '}
          {formatDurationNs(thread.wall_ns)})
          {thread.inferred[state] > 0 ? `, ${formatDurationNs(thread.inferred[state])} of it inferred` : ''}
          {tops.length > 0 ? (
            <div className="stack-frames">
              <div className="muted small">Heaviest blocking stacks in this state (leaf first)</div>
              <ol className="top-stacks" data-testid="top-stacks">
                {tops.map((top, i) => (
                  <TopStackItem key={top.stack_id} top={top} open={i === 0} />
                ))}
              </ol>
            </div>
          ) : state === 'unknown' ? (
            <p className="muted small">Nothing bounds this time: intervals still open when the capture ended, or a thread perf recorded no event of.</p>
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

      {waits.length > 0 ? (
        <div className="small" data-testid="thread-locks">
          <strong>Futex waits</strong>
          <ul>
            {waits.map(({ lock, wait }) => (
              <li key={`${lock.kind}-${lock.address ?? lock.stack_id ?? ''}-${lock.pid ?? ''}`}>
                <span className="mono">{lockLabel(lock)}</span>: ×{formatCount(wait.waits)}, {formatDurationNs(wait.total_ns)} in all, longest {formatDurationNs(wait.longest_ns)}
                {lock.waiter_count > 1 ? (
                  <span className="muted">
                    {' '}
                    · {formatCount(lock.waiter_count - 1)} other {lock.waiter_count === 2 ? 'thread waits' : 'threads wait'} on it
                  </span>
                ) : null}
              </li>
            ))}
          </ul>
        </div>
      ) : null}

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

function TopStackItem({ top, open }: { top: TopStack; open: boolean }) {
  const frames = [...top.frames].reverse();
  return (
    <li data-testid="top-stack">
      <details open={open}>
        <summary>
          <strong>{formatDurationNs(top.ns)}</strong> ({formatPercent(top.share)} of this state) · {formatCount(top.count)} waits · longest {formatDurationNs(top.longest_ns)}
          <span className="mono muted"> {frames.find((f) => !f.startsWith('__schedule') && f !== 'schedule') ?? frames[0] ?? ''}</span>
        </summary>
        <ol className="mono small">
          {frames.slice(0, FRAMES_SHOWN).map((f, i) => (
            <li key={`${i}-${f}`}>{f}</li>
          ))}
        </ol>
      </details>
    </li>
  );
}

const fmt = (ns: number | null): string => (ns === null ? '–' : formatDurationNs(ns));
