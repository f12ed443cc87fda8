/** The status control's steps: the four statuses in order, which is current, and when each was reached. */
import { INCIDENT_STATUSES, type Incident, type IncidentStatus } from '../../api/types';

export const STATUS_LABEL: Record<IncidentStatus, string> = {
  investigating: 'Investigating',
  identified: 'Identified',
  mitigated: 'Mitigated',
  resolved: 'Resolved',
};

export interface StatusStep {
  status: IncidentStatus;
  label: string;
  current: boolean;
  /** When the incident first reached it (investigating: when it started); null: never reached. */
  at: string | null;
}

type Stamped = Pick<Incident, 'started_at' | 'status' | 'identified_at' | 'mitigated_at' | 'resolved_at'>;

/** The time a status was first reached. Going back keeps the stamps, so a later step may be stamped too. */
export function reachedAt(incident: Stamped, status: IncidentStatus): string | null {
  switch (status) {
    case 'investigating':
      return incident.started_at;
    case 'identified':
      return incident.identified_at;
    case 'mitigated':
      return incident.mitigated_at;
    case 'resolved':
      return incident.resolved_at;
  }
}

export function statusSteps(incident: Stamped): StatusStep[] {
  return INCIDENT_STATUSES.map((status) => ({
    status,
    label: STATUS_LABEL[status],
    current: status === incident.status,
    at: reachedAt(incident, status),
  }));
}
