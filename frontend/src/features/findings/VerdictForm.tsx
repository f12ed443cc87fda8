import { useState } from 'react';
import { ErrorBanner } from '../../shared/components/ErrorBanner';
import { Time } from '../../shared/components/Time';
import type { Finding } from './api';
import { usePermissions } from '../auth/usePermissions';
import { useSetVerdict } from './queries';

/** Confirm or dismiss a finding, with an optional note; shows the verdict given and lets it be cleared. */
interface Props {
  incident: number;
  finding: Finding;
  /** After a dismissal is saved: the list folds the finding away. */
  onDismissed: () => void;
}

export function VerdictForm({ incident, finding, onDismissed }: Props) {
  const [note, setNote] = useState(finding.verdict?.note ?? '');
  const mutation = useSetVerdict(incident);
  const can = usePermissions();
  const { verdict } = finding;
  const send = (v: 'confirmed' | 'dismissed' | null) =>
    mutation.mutate({ findingId: finding.id, verdict: v, note: v === null ? '' : note.trim() }, { onSuccess: () => v === 'dismissed' && onDismissed() });
  return (
    <div className="finding-verdict" data-testid="finding-verdict">
      {verdict ? (
        <p className={`finding-verdict__given finding-verdict__given--${verdict.verdict}`} data-testid="finding-verdict-given">
          <strong>{verdict.verdict === 'confirmed' ? 'Confirmed' : 'Dismissed'}</strong>
          {verdict.note ? <span> — {verdict.note}</span> : null}
          {verdict.at ? (
            <span className="muted small">
              {' '}
              · <Time iso={verdict.at} />
            </span>
          ) : null}
        </p>
      ) : null}
      {!can.canRespond ? <p className="muted small">{can.whyNot('respond')}: no verdict from this account.</p> : null}
      {can.canRespond ? (
      <div className="finding-verdict__row">
        <input
          type="text"
          value={note}
          onChange={(e) => setNote(e.target.value)}
          placeholder="Note (optional): why it is or is not the cause"
          aria-label={`Note on ${finding.title}`}
          maxLength={2000}
        />
        <button type="button" className="btn btn--small" disabled={mutation.isPending || verdict?.verdict === 'confirmed'} onClick={() => send('confirmed')}>
          Confirm
        </button>
        <button type="button" className="btn btn--small" disabled={mutation.isPending || verdict?.verdict === 'dismissed'} onClick={() => send('dismissed')}>
          Dismiss
        </button>
        {verdict ? (
          <button type="button" className="btn btn--small btn--ghost" disabled={mutation.isPending} onClick={() => send(null)}>
            Clear verdict
          </button>
        ) : null}
      </div>
      ) : null}
      {mutation.isError ? <ErrorBanner title="Could not save the verdict." error={mutation.error} /> : null}
    </div>
  );
}
