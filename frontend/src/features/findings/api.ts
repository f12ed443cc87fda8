/** The findings endpoints: types (the API's) and typed calls. */
import { apiUrl, type Schemas } from '../../api/contract';
import { getJson, postJson, putJson } from '../../api/http';

export type Finding = Schemas['FindingOut'];
export type FindingSeverity = Finding['severity'];
export type FindingThread = Schemas['ThreadRefOut'];
/** One quantified fact: `label: text`, the number behind it, and the console view that shows it. */
export type Evidence = Schemas['EvidenceOut'];
/** A verdict given on a stored finding. */
export type Verdict = Schemas['GivenVerdictOut'];
export type VerdictKind = Verdict['verdict'];

export type FindingsReport = Schemas['FindingsOut'];
/** `computing` until the worker has looked at the incident's latest captures and baseline. */
export type FindingsState = FindingsReport['state'];

const findingsUrl = (incidentId: number) => apiUrl('/api/incidents/{incident_id}/findings', { incident_id: incidentId });

export const getFindings = (incidentId: number, signal?: AbortSignal): Promise<FindingsReport> => getJson(findingsUrl(incidentId), signal);

/** Compare with these hosts (none: no baseline); the answer is `computing` until the worker is done. */
export const putBaseline = (incidentId: number, hosts: string[]): Promise<FindingsReport> =>
  putJson(apiUrl('/api/incidents/{incident_id}/findings/baseline', { incident_id: incidentId }), { hosts });

/** The verdict as a finding holds it: none when it was cleared. */
export function givenVerdict(answer: Schemas['VerdictOut']): Verdict | null {
  return answer.verdict === null || answer.at === null ? null : { verdict: answer.verdict, note: answer.note, at: answer.at };
}

/** Confirm or dismiss a finding (null clears the verdict). */
export async function postVerdict(incidentId: number, findingId: string, verdict: VerdictKind | null, note: string): Promise<Verdict | null> {
  const url = apiUrl('/api/incidents/{incident_id}/findings/{finding_id}/verdict', { incident_id: incidentId, finding_id: findingId });
  return givenVerdict(await postJson(url, { verdict, note }));
}
