import { Link } from 'react-router';
import { ErrorBanner } from '../../shared/components/ErrorBanner';
import { usePermissions } from '../auth/usePermissions';
import { useDayBefore } from './queries';
import './watch.css';

/**
 * "What did these hosts do yesterday at this hour?": each watched host's round from the same time the
 * day before, copied into the incident and made the findings' baseline, with a diff per host.
 */
export function DayBeforeButton({ incident }: { incident: number }) {
  const can = usePermissions();
  const dayBefore = useDayBefore(incident);
  const done = dayBefore.data;
  return (
    <div className="stack stack--tight day-before" data-testid="day-before">
      <button
        type="button"
        className="btn"
        disabled={!can.canRespond || dayBefore.isPending}
        onClick={() => dayBefore.mutate()}
        title={can.whyNot('respond') ?? "Copy each watched host's round from the same time the day before and compare with it"}
      >
        {dayBefore.isPending ? 'Looking for the day before…' : 'Compare with the day before'}
      </button>
      {dayBefore.isError ? <ErrorBanner title="Could not add the day before." error={dayBefore.error} /> : null}
      {done ? (
        <ul className="day-before__result small" data-testid="day-before-result">
          {done.added.map((a) => (
            <li key={a.host}>
              {a.host}: {a.captures.length === 1 ? 'its round' : `its ${a.captures.length} files`} from the day before added as{' '}
              <strong>{a.baseline_host}</strong>, the baseline · <Link to={a.diff_url}>diff</Link>
            </li>
          ))}
          {done.skipped.map((reason) => (
            <li key={reason} className="muted">
              {reason}
            </li>
          ))}
          {done.added.length === 0 && done.skipped.length === 0 ? <li className="muted">No host in this incident yet.</li> : null}
        </ul>
      ) : null}
    </div>
  );
}
