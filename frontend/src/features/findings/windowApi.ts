/**
 * Findings of a time window against the rest of the captures' time: the typed call, and the answer
 * with its spans' ends in epoch µs as well. The server computes them on request (nothing is stored),
 * so the call is made only when asked.
 */
import { apiUrl, routeQuery, type ApiUrl, type Schemas } from '../../api/contract';
import { getJson } from '../../api/http';
import { epochUsFromIso, isoFromEpochUs, type EpochUs } from '../../shared/selection';

type WindowAnswer = Schemas['WindowFindingsOut'];

/** Which part of the rest of the time range the window is compared with. */
export type WindowSide = NonNullable<WindowAnswer['baseline']>['side'];

/** A span of time as the server sent it, with its ends in epoch µs for formatting. */
export type WindowSpan = Schemas['TimeRangeOut'] & {
  startUs: EpochUs;
  endUs: EpochUs;
};

export type WindowBaseline = WindowSpan & {
  side: WindowSide;
};

/** The answer, its spans with their µs. Window findings carry no verdict (they are not stored). */
export type WindowFindings = Omit<WindowAnswer, 'window' | 'baseline'> & {
  /** The window asked for, narrowed to where the captures have data. */
  window: WindowSpan;
  /** Null when the window covers all the captures' time: nothing to compare it with. */
  baseline: WindowBaseline | null;
};

/** What is asked: a range of the shared selection (epoch µs), its hosts, and the side to compare with. */
export interface WindowRequest {
  incident: number;
  fromUs: EpochUs;
  toUs: EpochUs;
  /** Empty: every host. */
  hosts: readonly string[];
  side: WindowSide;
}

function instantUs(iso: string): EpochUs {
  const us = epochUsFromIso(iso);
  if (us === null) throw new Error(`The server sent a window time this console cannot read: ${iso}`);
  return us;
}

const withUs = (span: Schemas['TimeRangeOut']): WindowSpan => ({ ...span, startUs: instantUs(span.start), endUs: instantUs(span.end) });

/** The answer with its spans' ends in epoch µs. */
export function windowFindingsOf(answer: WindowAnswer): WindowFindings {
  const { baseline } = answer;
  return { ...answer, window: withUs(answer.window), baseline: baseline ? { ...withUs(baseline), side: baseline.side } : null };
}

/**
 * The request's URL. Capture-clock instants go as their 1970-based ISO form: that is how the server
 * stores those captures' times.
 */
export function windowFindingsUrl(r: WindowRequest): ApiUrl<'/api/incidents/{incident_id}/findings/window'> {
  const p = routeQuery<'/api/incidents/{incident_id}/findings/window'>({ start: isoFromEpochUs(r.fromUs), end: isoFromEpochUs(r.toUs) });
  if (r.hosts.length > 0) p.set('hosts', r.hosts.join(','));
  p.set('baseline', r.side);
  return apiUrl('/api/incidents/{incident_id}/findings/window', { incident_id: r.incident }, p);
}

/** Takes from a fraction of a second to a few seconds on a big incident. */
export const getWindowFindings = async (r: WindowRequest, signal?: AbortSignal): Promise<WindowFindings> =>
  windowFindingsOf(await getJson(windowFindingsUrl(r), signal));
