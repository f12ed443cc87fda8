/** The questions asked before something goes to the trash or is purged: each says what is at stake. */
import type { Capture, Incident } from '../../api/types';

/**
 * How long the trash keeps things under the default policy. Only admins may read the policy, so a
 * responder's question names the default; the trash page shows each item's actual date.
 */
export const TRASH_DAYS_DEFAULT = 7;

export const deleteIncidentQuestion = (incident: Pick<Incident, 'id' | 'title'>): string =>
  `Move incident #${incident.id} “${incident.title}” and its captures to the trash? ` +
  `An admin can restore it for ${TRASH_DAYS_DEFAULT} days; after that it is purged for good.`;

export const deleteCaptureQuestion = (capture: Pick<Capture, 'id' | 'filename'>): string =>
  `Move capture #${capture.id} (${capture.filename}) to the trash? ` +
  `An admin can restore it for ${TRASH_DAYS_DEFAULT} days; after that it is purged for good.`;

export const purgeQuestion = (what: string): string => `Purge ${what} now? Its rows and uploads are deleted for good. This cannot be undone.`;
