/** The incident edit form: its fields from an incident, and the patch that sends only what changed. */
import type { Incident, Severity, Visibility } from '../../api/types';
import { parseMembers, visibilityFields } from '../incidents/visibility';
import type { IncidentPatch } from './api';

export interface EditDraft {
  title: string;
  severity: Severity;
  summary: string;
  rootCause: string;
  remediation: string;
  visibility: Visibility;
  /** User names, comma-separated as typed. */
  members: string;
}

export function draftOf(incident: Incident): EditDraft {
  return {
    title: incident.title,
    severity: incident.severity,
    summary: incident.summary,
    rootCause: incident.root_cause,
    remediation: incident.remediation,
    visibility: incident.visibility,
    members: incident.members.join(', '),
  };
}

const sameNames = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((n, i) => n === b[i]);

/**
 * The fields that differ from the incident, trimmed (an unchanged field is not sent, so two people
 * editing different fields do not undo each other). A blank title is a problem, not a change.
 */
export function patchOf(incident: Incident, draft: EditDraft): { patch: IncidentPatch; problem: string | null } {
  const title = draft.title.trim();
  if (!title) return { patch: {}, problem: 'Give the incident a title.' };
  const patch: IncidentPatch = {};
  if (title !== incident.title) patch.title = title;
  if (draft.severity !== incident.severity) patch.severity = draft.severity;
  const summary = draft.summary.trim();
  if (summary !== incident.summary) patch.summary = summary;
  const rootCause = draft.rootCause.trim();
  if (rootCause !== incident.root_cause) patch.root_cause = rootCause;
  const remediation = draft.remediation.trim();
  if (remediation !== incident.remediation) patch.remediation = remediation;
  const who = visibilityFields(draft.visibility, draft.members);
  if (who.visibility !== incident.visibility) patch.visibility = who.visibility;
  if (who.visibility === 'restricted' && !sameNames(parseMembers(draft.members), incident.members)) patch.members = who.members;
  return { patch, problem: null };
}

export const isEmptyPatch = (patch: IncidentPatch): boolean => Object.keys(patch).length === 0;
