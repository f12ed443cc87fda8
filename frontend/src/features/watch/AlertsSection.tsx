import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';
import { EmptyState } from '../../shared/components/EmptyState';
import { ErrorBanner } from '../../shared/components/ErrorBanner';
import { formatCount, formatPercent } from '../../shared/units';
import { Ago } from './Ago';
import { deliveryWords, evidencePath } from './alertView';
import type { Alert } from './api';
import { alertsQuery, useOpenIncident, WATCH_REFRESH_MS } from './queries';

interface Props {
  now: number;
  /** Responders may open an incident from an alert. */
  canOpen: boolean;
  /** The id of the signatures section, which the empty state points at. */
  signaturesId: string;
}

/** What on-call opens the page for: the alerts, newest first, read again while the page is open. */
export function AlertsSection({ now, canOpen, signaturesId }: Props) {
  const alerts = useQuery(alertsQuery());
  const open = useOpenIncident();
  const navigate = useNavigate();
  const openIncident = (alert: Alert) => {
    open.mutate(alert.id, { onSuccess: (opened) => void navigate(`/incidents/${opened.incident_id}`) });
  };

  return (
    <section className="stack stack--tight" aria-labelledby="watch-alerts" data-testid="watch-alerts">
      <div className="section-head">
        <h2 id="watch-alerts">Alerts</h2>
        <span className="muted small">Newest first, read again every {WATCH_REFRESH_MS / 1000} s.</span>
      </div>
      {alerts.isError ? <ErrorBanner title="Could not load the alerts:" error={alerts.error} onRetry={() => void alerts.refetch()} /> : null}
      {open.isError ? <ErrorBanner title="Could not open an incident from the alert:" error={open.error} /> : null}
      {alerts.isPending ? <p className="muted">Loading the alerts…</p> : null}
      {alerts.data && alerts.data.length === 0 ? (
        <EmptyState title="No alerts">
          <p>
            A host&apos;s watch capture raises an alert when it matches an enabled signature: a regular expression over frame names
            (with optional thresholds) or over the ids of the built-in detectors. New alerts are sent to the webhooks; matches within a
            signature&apos;s cool-down join its alert.
          </p>
          <p>
            Write what must never come back as a signature, <a href={`#${signaturesId}`}>below</a>.
          </p>
        </EmptyState>
      ) : null}
      {alerts.data && alerts.data.length > 0 ? (
        <div className="table-scroll">
          <table className="table watch-alerts">
            <thead>
              <tr>
                <th>Signature</th>
                <th>Host</th>
                <th>Summary</th>
                <th>First seen</th>
                <th>Last seen</th>
                <th className="num">Matches</th>
                <th className="num">Share</th>
                <th>Deliveries</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {alerts.data.map((a) => (
                <AlertRow
                  key={a.id}
                  alert={a}
                  now={now}
                  canOpen={canOpen}
                  opening={open.isPending && open.variables === a.id}
                  busy={open.isPending}
                  onOpen={() => openIncident(a)}
                />
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </section>
  );
}

interface RowProps {
  alert: Alert;
  now: number;
  canOpen: boolean;
  opening: boolean;
  busy: boolean;
  onOpen: () => void;
}

function AlertRow({ alert: a, now, canOpen, opening, busy, onOpen }: RowProps) {
  const evidence = evidencePath(a.evidence_url);
  return (
    <tr data-testid="alert-row" data-alert-id={a.id}>
      <td>
        <strong>{a.signature}</strong>
      </td>
      <td className="nowrap">
        {a.stream_id === null ? a.host : <Link to={`/incidents/${a.stream_id}`} title={`The watch stream of ${a.host}`}>{a.host}</Link>}
      </td>
      <td className="watch-alerts__summary">{a.summary}</td>
      <td>
        <Ago iso={a.first_at} now={now} />
      </td>
      <td>
        <Ago iso={a.last_at} now={now} />
      </td>
      <td className="num">{formatCount(a.matches)}</td>
      <td className="num">{formatPercent(a.share)}</td>
      <td>
        {a.deliveries.length === 0 ? (
          <span className="muted small">no webhook</span>
        ) : (
          <ul className="watch-deliveries">
            {a.deliveries.map((d) => {
              const words = deliveryWords(d);
              return (
                <li key={d.webhook}>
                  {d.webhook}{' '}
                  <span className={`watch-status watch-status--${d.status}`} title={words.detail}>
                    {words.status}
                  </span>
                  {/* The hover's words, for those who do not hover. */}
                  {d.status === 'failed' ? <span className="visually-hidden">: {words.detail}</span> : null}
                </li>
              );
            })}
          </ul>
        )}
      </td>
      <td className="actions">
        {evidence === null ? null : (
          <Link to={evidence} aria-label={`Evidence: ${a.signature} on ${a.host}`} title="The flame graph of the latest matching capture">
            Evidence
          </Link>
        )}
        {a.incident_id !== null ? (
          <Link to={`/incidents/${a.incident_id}`}>Incident #{a.incident_id}</Link>
        ) : canOpen ? (
          <button
            type="button"
            className="btn btn--small"
            disabled={busy}
            title="A new incident holding the watch captures that matched"
            onClick={onOpen}
          >
            {opening ? 'Opening…' : 'Open incident'}
          </button>
        ) : null}
      </td>
    </tr>
  );
}
