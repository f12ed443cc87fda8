import type { Incident, IncidentStatus } from '../../api/types';
import { Time } from '../../shared/components/Time';
import { statusSteps } from './status';

interface Props {
  incident: Incident;
  /** Null: read-only, with `whyNot` as the reason. */
  onSet: ((status: IncidentStatus) => void) | null;
  whyNot: string | null;
  busy: boolean;
}

/** The four statuses in order: the current one marked, each reached one with the time it was first reached. */
export function StatusControl({ incident, onSet, whyNot, busy }: Props) {
  return (
    <ol className="status-steps" aria-label="Status" data-testid="status-steps">
      {statusSteps(incident).map((step) => (
        <li
          key={step.status}
          className={`status-step${step.current ? ' status-step--current' : ''}${step.at ? ' status-step--reached' : ''}`}
          data-testid={`status-${step.status}`}
        >
          <button
            type="button"
            className="status-step__button"
            aria-pressed={step.current}
            disabled={onSet === null || busy || step.current}
            title={onSet === null ? (whyNot ?? undefined) : step.current ? 'The current status' : `Set the status to ${step.label.toLowerCase()}`}
            onClick={() => onSet?.(step.status)}
          >
            {step.label}
          </button>
          <span className="status-step__at small muted" data-testid={`status-${step.status}-at`}>
            {step.at ? <Time iso={step.at} /> : 'not yet'}
          </span>
        </li>
      ))}
    </ol>
  );
}
