import { useQuery } from '@tanstack/react-query';
import type { TraceEvent } from '../../api/types';
import { ErrorBanner } from '../../shared/components/ErrorBanner';
import { eventDuration, eventTimeUtc } from './eventFormat';
import { stackQuery } from './queries';

/** The selected event in full, with its stack as text (root first). */
export function StackPanel({ event: e, onClose }: { event: TraceEvent; onClose: () => void }) {
  const stack = useQuery({ ...stackQuery(e.stack_id ?? 0), enabled: e.stack_id !== null });
  return (
    <aside className="event-detail" aria-label="Selected event" data-testid="event-detail">
      <div className="section-head">
        <h3>
          <span className="mono">{e.name}</span> · {eventDuration(e.duration_ns)}
        </h3>
        <div className="spacer" />
        <button type="button" className="btn btn--small btn--ghost" onClick={onClose} aria-label="Close event details">
          Close
        </button>
      </div>
      <dl className="kv">
        <dt>time (UTC)</dt>
        <dd className="mono">{eventTimeUtc(e.ts)}</dd>
        <dt>thread</dt>
        <dd className="mono">
          {e.comm} · tid {e.tid ?? '?'}
          {e.pid !== null ? ` · pid ${e.pid}` : ''}
          {e.cpu !== null ? ` · cpu ${e.cpu}` : ''}
        </dd>
        {e.args !== null ? (
          <>
            <dt>args</dt>
            <dd className="mono wrap">{e.args}</dd>
          </>
        ) : null}
        {e.result !== null ? (
          <>
            <dt>result</dt>
            <dd className="mono">{e.result}</dd>
          </>
        ) : null}
        {e.attrs ? (
          <>
            <dt>attributes</dt>
            <dd className="mono wrap">{JSON.stringify(e.attrs)}</dd>
          </>
        ) : null}
      </dl>
      <h4>Stack</h4>
      {e.stack_id === null ? <p className="muted small">No stack was recorded for this event.</p> : null}
      {stack.isPending && e.stack_id !== null ? <p className="muted small">Loading stack…</p> : null}
      {stack.isError ? <ErrorBanner title="Could not load the stack." error={stack.error} onRetry={() => void stack.refetch()} /> : null}
      {stack.data ? (
        stack.data.length === 0 ? (
          <p className="muted small">The stack is empty (the tracer recorded no frames).</p>
        ) : (
          <ol className="stack-frames mono" data-testid="stack-frames">
            {stack.data.map((f, i) => (
              <li key={i} className={`frame-kind--${f.kind}`}>
                {f.name}
                {f.kind !== 'user' && f.kind !== 'unknown' ? <span className="muted"> [{f.kind}]</span> : null}
              </li>
            ))}
          </ol>
        )
      ) : null}
    </aside>
  );
}
