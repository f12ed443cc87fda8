import { useState } from 'react';
import { useNavigate } from 'react-router';
import type { Incident } from '../../api/types';
import { ErrorBanner } from '../../shared/components/ErrorBanner';
import { isGuest } from '../guests/guestScope';
import { useMe, usePermissions } from '../auth/usePermissions';
import { deleteIncidentQuestion } from './confirmations';
import { EditIncidentForm } from './EditIncidentForm';
import { useTrashIncident, usePatchIncident } from './queries';
import { StatusControl } from './StatusControl';
import { StorageLine } from './StorageLine';
import './lifecycle.css';

/** Under the incident header: status, edit, delete, the post-incident write-up and what it stores. */
export function IncidentLifecycle({ incident }: { incident: Incident }) {
  const can = usePermissions();
  const guest = isGuest(useMe());
  const navigate = useNavigate();
  const [editing, setEditing] = useState(false);
  const patch = usePatchIncident(incident.id);
  const trash = useTrashIncident(incident.id);
  const whyNot = can.whyNot('respond');

  const remove = () => {
    if (!window.confirm(deleteIncidentQuestion(incident))) return;
    trash.mutate(undefined, { onSuccess: () => void navigate('/') });
  };

  return (
    <section className="lifecycle stack stack--tight" data-testid="incident-lifecycle">
      <div className="lifecycle__bar">
        <StatusControl incident={incident} onSet={can.canRespond ? (status) => patch.mutate({ status }) : null} whyNot={whyNot} busy={patch.isPending} />
        <div className="spacer" />
        {guest ? null : (
          <>
            <button type="button" className="btn" disabled={!can.canRespond || editing} title={whyNot ?? 'Title, severity, summary, root cause, remediation, who may see it'} onClick={() => setEditing(true)}>
              Edit
            </button>
            <button type="button" className="btn btn--trash" disabled={!can.canRespond || trash.isPending} title={whyNot ?? 'Move to the trash'} onClick={remove}>
              {trash.isPending ? 'Deleting…' : 'Delete…'}
            </button>
          </>
        )}
      </div>
      {patch.isError ? <ErrorBanner title="Could not change the status." error={patch.error} /> : null}
      {trash.isError ? <ErrorBanner title="Could not delete the incident." error={trash.error} /> : null}
      {editing ? <EditIncidentForm incident={incident} onDone={() => setEditing(false)} /> : <WriteUp incident={incident} />}
      {guest ? null : <StorageLine incident={incident.id} />}
    </section>
  );
}

/** Root cause and remediation, read-only, once written. */
function WriteUp({ incident }: { incident: Incident }) {
  const rootCause = incident.root_cause;
  const remediation = incident.remediation;
  if (!rootCause && !remediation) return null;
  return (
    <dl className="write-up">
      {rootCause ? (
        <div>
          <dt>Root cause</dt>
          <dd data-testid="root-cause">{rootCause}</dd>
        </div>
      ) : null}
      {remediation ? (
        <div>
          <dt>Remediation</dt>
          <dd data-testid="remediation">{remediation}</dd>
        </div>
      ) : null}
    </dl>
  );
}
