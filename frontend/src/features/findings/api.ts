/** The findings endpoints: types, decoders at the boundary, and typed calls. */
import { arr, nullable, num, obj, oneOf, str } from '../../api/decode';
import { getJson, postJson, putJson } from '../../api/http';

export const FINDING_SEVERITIES = ['critical', 'warning', 'info'] as const;
export type FindingSeverity = (typeof FINDING_SEVERITIES)[number];

/** `computing` until the worker has looked at the incident's latest captures and baseline. */
export const FINDINGS_STATES = ['ready', 'computing', 'none'] as const;
export type FindingsState = (typeof FINDINGS_STATES)[number];

export const VERDICTS = ['confirmed', 'dismissed'] as const;
export type VerdictKind = (typeof VERDICTS)[number];

export interface FindingThread {
  host: string;
  pid: number | null;
  tid: number | null;
  comm: string;
}

/** One quantified fact: `label: text`, the number behind it, and the console view that shows it. */
export interface Evidence {
  label: string;
  text: string;
  value: number | null;
  /** `share` (0 to 1), `ns`, `count`, `per_s`, `bytes`, `percent`. */
  unit: string | null;
  /** The same number on the baseline hosts, when there are some. */
  baseline: number | null;
  /** A path of this console's routes with its query, e.g. `/flame?incident=1&q=rwsem_down`. */
  view: string | null;
}

export interface Verdict {
  verdict: VerdictKind;
  note: string;
  at: string;
}

export interface Finding {
  id: string;
  title: string;
  severity: FindingSeverity;
  /** 0 to 1. */
  confidence: number;
  summary: string;
  hosts: string[];
  threads: FindingThread[];
  /** Epoch nanoseconds, [start, end]. */
  time_range_ns: [number, number] | null;
  capture_ids: number[];
  evidence: Evidence[];
  /** One sentence comparing with the baseline hosts. */
  baseline: string | null;
  next_checks: string[];
  remediation: string;
  references: string[];
  /** How much of the symptom this explains (0 to 1): ranks findings of the same severity. */
  score: number;
  view: string | null;
  verdict: Verdict | null;
}

export interface FindingsReport {
  state: FindingsState;
  computed_at: string | null;
  duration_ms: number | null;
  hosts: string[];
  baseline_hosts: string[];
  /** Captures of the incident still queued or parsing: the findings will change when they are done. */
  captures_pending: number;
  notes: string[];
  findings: Finding[];
}

const nstr = nullable(str);
const nnum = nullable(num);
const severity = oneOf(FINDING_SEVERITIES);
const findingsState = oneOf(FINDINGS_STATES);
const verdictKind = oneOf(VERDICTS);
const strings = (v: unknown, path: string): string[] => (v == null ? [] : arr(v, path, str));

function decodeThread(v: unknown, path: string): FindingThread {
  const o = obj(v, path);
  return {
    host: nstr(o.host, `${path}.host`) ?? '',
    pid: nnum(o.pid, `${path}.pid`),
    tid: nnum(o.tid, `${path}.tid`),
    comm: nstr(o.comm, `${path}.comm`) ?? '',
  };
}

function decodeEvidence(v: unknown, path: string): Evidence {
  const o = obj(v, path);
  return {
    label: str(o.label, `${path}.label`),
    text: str(o.text, `${path}.text`),
    value: nnum(o.value, `${path}.value`),
    unit: nstr(o.unit, `${path}.unit`),
    baseline: nnum(o.baseline, `${path}.baseline`),
    view: nstr(o.view, `${path}.view`),
  };
}

function decodeRange(v: unknown, path: string): [number, number] | null {
  if (v === null || v === undefined) return null;
  const [start, end] = arr(v, path, num);
  if (start === undefined || end === undefined) return null;
  return [start, end];
}

/** A verdict as stored, or null when none was given (or it was cleared). */
export function decodeVerdict(v: unknown, path = 'verdict'): Verdict | null {
  if (v === null || v === undefined) return null;
  const o = obj(v, path);
  if (o.verdict === null || o.verdict === undefined) return null;
  return {
    verdict: verdictKind(o.verdict, `${path}.verdict`),
    note: nstr(o.note, `${path}.note`) ?? '',
    at: nstr(o.at, `${path}.at`) ?? '',
  };
}

export function decodeFinding(v: unknown, path = 'finding'): Finding {
  const o = obj(v, path);
  return {
    id: str(o.id, `${path}.id`),
    title: str(o.title, `${path}.title`),
    severity: severity(o.severity, `${path}.severity`),
    confidence: num(o.confidence, `${path}.confidence`),
    summary: nstr(o.summary, `${path}.summary`) ?? '',
    hosts: strings(o.hosts, `${path}.hosts`),
    threads: o.threads == null ? [] : arr(o.threads, `${path}.threads`, decodeThread),
    time_range_ns: decodeRange(o.time_range_ns, `${path}.time_range_ns`),
    capture_ids: o.capture_ids == null ? [] : arr(o.capture_ids, `${path}.capture_ids`, num),
    evidence: o.evidence == null ? [] : arr(o.evidence, `${path}.evidence`, decodeEvidence),
    baseline: nstr(o.baseline, `${path}.baseline`),
    next_checks: strings(o.next_checks, `${path}.next_checks`),
    remediation: nstr(o.remediation, `${path}.remediation`) ?? '',
    references: strings(o.references, `${path}.references`),
    score: nnum(o.score, `${path}.score`) ?? 0,
    view: nstr(o.view, `${path}.view`),
    verdict: decodeVerdict(o.verdict, `${path}.verdict`),
  };
}

export function decodeFindingsReport(v: unknown): FindingsReport {
  const o = obj(v, 'findings');
  return {
    state: findingsState(o.state, 'findings.state'),
    computed_at: nstr(o.computed_at, 'findings.computed_at'),
    duration_ms: nnum(o.duration_ms, 'findings.duration_ms'),
    hosts: strings(o.hosts, 'findings.hosts'),
    baseline_hosts: strings(o.baseline_hosts, 'findings.baseline_hosts'),
    captures_pending: nnum(o.captures_pending, 'findings.captures_pending') ?? 0,
    notes: strings(o.notes, 'findings.notes'),
    findings: o.findings == null ? [] : arr(o.findings, 'findings.findings', decodeFinding),
  };
}

const findingsUrl = (incidentId: number) => `/api/incidents/${incidentId}/findings`;

export const getFindings = (incidentId: number, signal?: AbortSignal): Promise<FindingsReport> =>
  getJson(findingsUrl(incidentId), decodeFindingsReport, signal);

/** Compare with these hosts (none: no baseline); the answer is `computing` until the worker is done. */
export const putBaseline = (incidentId: number, hosts: string[]): Promise<FindingsReport> =>
  putJson(`${findingsUrl(incidentId)}/baseline`, { hosts }, decodeFindingsReport);

/** Confirm or dismiss a finding (null clears the verdict). */
export const postVerdict = (incidentId: number, findingId: string, verdict: VerdictKind | null, note: string): Promise<Verdict | null> =>
  postJson(`${findingsUrl(incidentId)}/${encodeURIComponent(findingId)}/verdict`, { verdict, note }, (v) => decodeVerdict(v));
