/**
 * Findings of a time window against the rest of the captures' time: the typed call and its decoder.
 * The server computes them on request (nothing is stored), so the call is made only when asked.
 */
import { arr, DecodeError, num, obj, oneOf, str } from '../../api/decode';
import { getJson } from '../../api/http';
import { epochUsFromIso, isoFromEpochUs, type EpochUs } from '../../shared/selection';
import { decodeFinding, type Finding } from './api';

export const WINDOW_SIDES = ['before', 'after'] as const;
/** Which part of the rest of the time range the window is compared with. */
export type WindowSide = (typeof WINDOW_SIDES)[number];

/** A span of time as the server sent it, with its ends in epoch µs for formatting. */
export interface WindowSpan {
  start: string;
  /** Exclusive. */
  end: string;
  startUs: EpochUs;
  endUs: EpochUs;
}

export interface WindowBaseline extends WindowSpan {
  side: WindowSide;
}

export interface WindowFindings {
  /** The window asked for, narrowed to where the captures have data. */
  window: WindowSpan;
  /** Null when the window covers all the captures' time: nothing to compare it with. */
  baseline: WindowBaseline | null;
  hosts: string[];
  capture_ids: number[];
  duration_ms: number;
  notes: string[];
  /** Window findings carry no verdict (they are not stored): `verdict` is always null. */
  findings: Finding[];
}

/** What is asked: a range of the shared selection (epoch µs), its hosts, and the side to compare with. */
export interface WindowRequest {
  incident: number;
  fromUs: EpochUs;
  toUs: EpochUs;
  /** Empty: every host. */
  hosts: readonly string[];
  side: WindowSide;
}

const side = oneOf(WINDOW_SIDES);
const strings = (v: unknown, path: string): string[] => (v == null ? [] : arr(v, path, str));

function instant(v: unknown, path: string): [string, EpochUs] {
  const iso = str(v, path);
  const us = epochUsFromIso(iso);
  if (us === null) throw new DecodeError(path, 'an ISO 8601 time', v);
  return [iso, us];
}

function decodeSpan(v: unknown, path: string): WindowSpan {
  const o = obj(v, path);
  const [start, startUs] = instant(o.start, `${path}.start`);
  const [end, endUs] = instant(o.end, `${path}.end`);
  return { start, end, startUs, endUs };
}

function decodeBaseline(v: unknown, path: string): WindowBaseline | null {
  if (v === null || v === undefined) return null;
  return { ...decodeSpan(v, path), side: side(obj(v, path).side, `${path}.side`) };
}

export function decodeWindowFindings(v: unknown): WindowFindings {
  const o = obj(v, 'window_findings');
  return {
    window: decodeSpan(o.window, 'window_findings.window'),
    baseline: decodeBaseline(o.baseline, 'window_findings.baseline'),
    hosts: strings(o.hosts, 'window_findings.hosts'),
    capture_ids: o.capture_ids == null ? [] : arr(o.capture_ids, 'window_findings.capture_ids', num),
    duration_ms: num(o.duration_ms, 'window_findings.duration_ms'),
    notes: strings(o.notes, 'window_findings.notes'),
    findings: o.findings == null ? [] : arr(o.findings, 'window_findings.findings', decodeFinding),
  };
}

/**
 * The request's URL. Capture-clock instants go as their 1970-based ISO form: that is how the server
 * stores those captures' times.
 */
export function windowFindingsUrl(r: WindowRequest): string {
  const p = new URLSearchParams({ start: isoFromEpochUs(r.fromUs), end: isoFromEpochUs(r.toUs) });
  if (r.hosts.length > 0) p.set('hosts', r.hosts.join(','));
  p.set('baseline', r.side);
  return `/api/incidents/${r.incident}/findings/window?${p.toString()}`;
}

/** Takes from a fraction of a second to a few seconds on a big incident. */
export const getWindowFindings = (r: WindowRequest, signal?: AbortSignal): Promise<WindowFindings> =>
  getJson(windowFindingsUrl(r), decodeWindowFindings, signal);
