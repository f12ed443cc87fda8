import type { Incident } from '../../api/types';
import { SeverityBadge } from '../../shared/components/SeverityBadge';
import { Time } from '../../shared/components/Time';

export function IncidentHeader({ incident }: { incident: Incident }) {
  return (
    <header className="incident-head">
      <div className="incident-head__title">
        <SeverityBadge severity={incident.severity} />
        <h1>
          <span className="muted mono">#{incident.id}</span> {incident.title}
        </h1>
      </div>
      <dl className="facts">
        <div>
          <dt>Started</dt>
          <dd>
            <Time iso={incident.started_at} relative />
          </dd>
        </div>
        <div>
          <dt>Opened</dt>
          <dd>
            <Time iso={incident.created_at} />
          </dd>
        </div>
        <div>
          <dt>Captures</dt>
          <dd>{incident.capture_count}</dd>
        </div>
      </dl>
      {incident.summary ? <p className="incident-head__summary">{incident.summary}</p> : null}
    </header>
  );
}
