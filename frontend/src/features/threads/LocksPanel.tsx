import { formatCount, formatDurationNs } from '../../shared/units';
import type { Lock } from './api';
import { lockLabel } from './threadsView';

const LOCKS_SHOWN = 10;
const WAITERS_SHOWN = 6;

interface Props {
  locks: Lock[];
  /** Open a waiter's details (its capture and tid). */
  onOpen: (captureId: number, tid: number) => void;
}

/** Futex waits grouped by lock: which threads wait on which futex, how often and for how long. */
export function LocksPanel({ locks, onOpen }: Props) {
  if (locks.length === 0) return null;
  const bySite = locks.some((l) => l.kind === 'site');
  return (
    <section className="stack stack--tight" aria-label="Futex waits by lock" data-testid="locks-panel">
      <h2>Futex waits by lock</h2>
      {bySite ? (
        <p className="muted small">
          A <em>call site</em> is a blocking stack: the capture did not record the futex’s address (record <code>-e syscalls:sys_enter_futex</code> with the sched events,
          or use <code>perf trace</code>).
        </p>
      ) : null}
      <table className="table locks-table">
        <thead>
          <tr>
            <th>Lock</th>
            <th className="num">Waits</th>
            <th className="num">Total</th>
            <th className="num">Longest</th>
            <th>Waiters (total wait)</th>
          </tr>
        </thead>
        <tbody>
          {locks.slice(0, LOCKS_SHOWN).map((lock) => (
            <tr key={`${lock.capture_id}-${lock.pid ?? ''}-${lock.kind}-${lock.address ?? lock.stack_id ?? ''}`} data-testid="lock-row" data-address={lock.address ?? undefined}>
              <td className="mono small" title={lock.kind === 'site' ? [...lock.frames].reverse().join('\n') : undefined}>
                {lockLabel(lock)}
                {lock.host ? <span className="muted"> · {lock.host}</span> : null}
              </td>
              <td className="num">{formatCount(lock.waits)}</td>
              <td className="num">{formatDurationNs(lock.total_ns)}</td>
              <td className="num">{formatDurationNs(lock.longest_ns)}</td>
              <td className="small">
                {lock.waiters.slice(0, WAITERS_SHOWN).map((w, i) => (
                  <span key={w.tid}>
                    {i > 0 ? ', ' : ''}
                    <button type="button" className="linklike" onClick={() => onOpen(lock.capture_id, w.tid)}>
                      {w.comm} {w.tid}
                    </button>{' '}
                    <span className="muted">{formatDurationNs(w.total_ns)}</span>
                  </span>
                ))}
                {lock.waiter_count > WAITERS_SHOWN ? <span className="muted"> and {formatCount(lock.waiter_count - WAITERS_SHOWN)} more</span> : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
