import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { EmptyState } from '../../shared/components/EmptyState';
import { ErrorBanner } from '../../shared/components/ErrorBanner';
import { formatCount } from '../../shared/units';
import { Ago } from './Ago';
import { streamsQuery } from './queries';

/** The systemd unit shipped with the collector, which runs watch mode as a service. */
const WATCH_UNIT = 'stallscope-collect-watch.service';

/** The hosts sending watch captures: each stream is an incident whose page lists its captures. */
export function StreamsSection({ now }: { now: number }) {
  const streams = useQuery(streamsQuery());
  return (
    <section className="stack stack--tight" aria-labelledby="watch-streams" data-testid="watch-streams">
      <div className="section-head">
        <h2 id="watch-streams">Watch streams</h2>
        <span className="muted small">A host&apos;s periodic captures, one stream per host.</span>
      </div>
      {streams.isError ? <ErrorBanner title="Could not load the watch streams:" error={streams.error} onRetry={() => void streams.refetch()} /> : null}
      {streams.isPending ? <p className="muted">Loading the watch streams…</p> : null}
      {streams.data && streams.data.length === 0 ? (
        <EmptyState title="No host is sending watch captures">
          <p>On each host to watch, start the collector in watch mode:</p>
          <code className="mono watch-command">sudo stallscope-collect watch --server {window.location.origin}</code>
          <p>
            It sends with a collector token (<Link to="/tokens">API tokens</Link>) read from <code>--token-file</code> or{' '}
            <code>STALLSCOPE_TOKEN</code> (which sudo drops unless told <code>--preserve-env=STALLSCOPE_TOKEN</code>). To keep it running,
            install the systemd unit shipped with the collector, <code>{WATCH_UNIT}</code>. The host&apos;s first upload starts its stream
            here.
          </p>
        </EmptyState>
      ) : null}
      {streams.data && streams.data.length > 0 ? (
        <table className="table watch-streams">
          <thead>
            <tr>
              <th>Host</th>
              <th className="num">Captures</th>
              <th>Last upload</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {streams.data.map((s) => (
              <tr key={s.id} data-testid="stream-row" data-stream-id={s.id}>
                <td className="mono">{s.host}</td>
                <td className="num">{formatCount(s.captures)}</td>
                <td>{s.last_upload ? <Ago iso={s.last_upload} now={now} /> : <span className="muted">never</span>}</td>
                <td className="actions">
                  <Link to={`/incidents/${s.id}`} aria-label={`Captures of ${s.host}`}>
                    Captures
                  </Link>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </section>
  );
}
