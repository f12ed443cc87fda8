/**
 * Narrowing of untrusted JSON into the API types. This is the parse boundary: everything past it is
 * typed, everything before it is `unknown`.
 */
import {
  CAPTURE_STATUSES,
  FRAME_KINDS,
  INCIDENT_STATUSES,
  SEVERITIES,
  VISIBILITIES,
  type ApiToken,
  type Capture,
  type CaptureDocument,
  type EventsPage,
  METRIC_KINDS,
  type MetricPoint,
  type MetricPoints,
  type MetricSeries,
  type NewApiToken,
  type StackFrame,
  type TraceEvent,
  type CaptureWarning,
  type EventCount,
  type Facets,
  type FlameNode,
  type FlameResponse,
  type FrameKind,
  type Incident,
  type ProcessFacet,
  type ThreadFacet,
} from './types';

export class DecodeError extends Error {
  constructor(path: string, expected: string, got: unknown) {
    super(`Unexpected API response at ${path}: expected ${expected}, got ${describe(got)}`);
    this.name = 'DecodeError';
  }
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

type Obj = Record<string, unknown>;

export function obj(v: unknown, path: string): Obj {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new DecodeError(path, 'object', v);
  return v as Obj;
}

export function str(v: unknown, path: string): string {
  if (typeof v !== 'string') throw new DecodeError(path, 'string', v);
  return v;
}

export function num(v: unknown, path: string): number {
  if (typeof v !== 'number' || Number.isNaN(v)) throw new DecodeError(path, 'number', v);
  return v;
}

export function bool(v: unknown, path: string): boolean {
  if (typeof v !== 'boolean') throw new DecodeError(path, 'boolean', v);
  return v;
}

export function nullable<T>(decode: (v: unknown, path: string) => T) {
  return (v: unknown, path: string): T | null => (v === null || v === undefined ? null : decode(v, path));
}

export function arr<T>(v: unknown, path: string, decode: (item: unknown, path: string) => T): T[] {
  if (!Array.isArray(v)) throw new DecodeError(path, 'array', v);
  return v.map((item: unknown, i) => decode(item, `${path}[${i}]`));
}

export function oneOf<T extends string>(allowed: readonly T[]) {
  return (v: unknown, path: string): T => {
    const s = str(v, path);
    if (!(allowed as readonly string[]).includes(s)) throw new DecodeError(path, allowed.join('|'), s);
    return s as T;
  };
}

const severity = oneOf(SEVERITIES);
const visibility = oneOf(VISIBILITIES);
const captureStatus = oneOf(CAPTURE_STATUSES);
const incidentStatus = oneOf(INCIDENT_STATUSES);
const nstr = nullable(str);
const nnum = nullable(num);

export function decodeIncident(v: unknown, path = 'incident'): Incident {
  const o = obj(v, path);
  return {
    id: num(o.id, `${path}.id`),
    title: str(o.title, `${path}.title`),
    severity: severity(o.severity, `${path}.severity`),
    started_at: str(o.started_at, `${path}.started_at`),
    summary: nstr(o.summary, `${path}.summary`) ?? '',
    created_at: str(o.created_at, `${path}.created_at`),
    capture_count: nnum(o.capture_count, `${path}.capture_count`) ?? 0,
    visibility: o.visibility === undefined ? 'team' : visibility(o.visibility, `${path}.visibility`),
    members: o.members === undefined ? [] : arr(o.members, `${path}.members`, str),
    status: o.status === undefined ? 'investigating' : incidentStatus(o.status, `${path}.status`),
    identified_at: nstr(o.identified_at, `${path}.identified_at`),
    mitigated_at: nstr(o.mitigated_at, `${path}.mitigated_at`),
    resolved_at: nstr(o.resolved_at, `${path}.resolved_at`),
    root_cause: nstr(o.root_cause, `${path}.root_cause`) ?? '',
    remediation: nstr(o.remediation, `${path}.remediation`) ?? '',
    updated_at: nstr(o.updated_at, `${path}.updated_at`),
  };
}

export const decodeIncidents = (v: unknown): Incident[] => arr(v, 'incidents', decodeIncident);

function decodeWarning(v: unknown, path: string): CaptureWarning {
  const o = obj(v, path);
  return { line: nnum(o.line, `${path}.line`) ?? 0, message: str(o.message, `${path}.message`) };
}

function decodeEventCount(v: unknown, path: string): EventCount {
  const o = obj(v, path);
  return { name: str(o.name, `${path}.name`), samples: num(o.samples, `${path}.samples`) };
}

export function decodeCapture(v: unknown, path = 'capture'): Capture {
  const o = obj(v, path);
  const clock = o.clock === null || o.clock === undefined ? {} : obj(o.clock, `${path}.clock`);
  return {
    id: num(o.id, `${path}.id`),
    incident_id: num(o.incident_id, `${path}.incident_id`),
    host: nstr(o.host, `${path}.host`),
    filename: str(o.filename, `${path}.filename`),
    format: nstr(o.format, `${path}.format`),
    status: captureStatus(o.status, `${path}.status`),
    progress: nnum(o.progress, `${path}.progress`) ?? 0,
    error: nstr(o.error, `${path}.error`),
    recovery_note: nstr(o.recovery_note, `${path}.recovery_note`),
    warnings: o.warnings == null ? [] : arr(o.warnings, `${path}.warnings`, decodeWarning),
    dropped_lines: nnum(o.dropped_lines, `${path}.dropped_lines`) ?? 0,
    truncated: o.truncated === true,
    sha256: nstr(o.sha256, `${path}.sha256`) ?? '',
    compression: nstr(o.compression, `${path}.compression`) ?? 'none',
    size_bytes: nnum(o.size_bytes, `${path}.size_bytes`) ?? 0,
    size_uncompressed: nnum(o.size_uncompressed, `${path}.size_uncompressed`),
    sample_count: nnum(o.sample_count, `${path}.sample_count`) ?? 0,
    stack_count: nnum(o.stack_count, `${path}.stack_count`) ?? 0,
    thread_count: nnum(o.thread_count, `${path}.thread_count`) ?? 0,
    events: o.events == null ? [] : arr(o.events, `${path}.events`, decodeEventCount),
    time_start: nstr(o.time_start, `${path}.time_start`),
    time_end: nstr(o.time_end, `${path}.time_end`),
    clock: {
      mode: nstr(clock.mode, `${path}.clock.mode`) ?? 'unknown',
      note: nstr(clock.note, `${path}.clock.note`) ?? '',
      offset_ns: nnum(clock.offset_ns, `${path}.clock.offset_ns`) ?? 0,
      shift_ns: nnum(clock.shift_ns, `${path}.clock.shift_ns`) ?? 0,
    },
    kind: nstr(o.kind, `${path}.kind`),
    record_counts: o.record_counts == null ? {} : numberRecord(o.record_counts, `${path}.record_counts`),
    meta: o.meta == null ? {} : obj(o.meta, `${path}.meta`),
    created_at: str(o.created_at, `${path}.created_at`),
    parsed_at: nstr(o.parsed_at, `${path}.parsed_at`),
  };
}

export const decodeCaptures = (v: unknown): Capture[] => arr(v, 'captures', decodeCapture);

function decodeProcess(v: unknown, path: string): ProcessFacet {
  const o = obj(v, path);
  return {
    pid: nnum(o.pid, `${path}.pid`),
    comm: nstr(o.comm, `${path}.comm`) ?? '',
    samples: num(o.samples, `${path}.samples`),
  };
}

function decodeThread(v: unknown, path: string): ThreadFacet {
  const o = obj(v, path);
  return {
    pid: nnum(o.pid, `${path}.pid`),
    tid: nnum(o.tid, `${path}.tid`),
    comm: nstr(o.comm, `${path}.comm`) ?? '',
    samples: num(o.samples, `${path}.samples`),
  };
}

export function decodeFacets(v: unknown): Facets {
  const o = obj(v, 'facets');
  return {
    events: arr(o.events ?? [], 'facets.events', decodeEventCount),
    processes: arr(o.processes ?? [], 'facets.processes', decodeProcess),
    threads: arr(o.threads ?? [], 'facets.threads', decodeThread),
    time_start: nstr(o.time_start, 'facets.time_start'),
    time_end: nstr(o.time_end, 'facets.time_end'),
  };
}

const frameKinds: readonly string[] = FRAME_KINDS;

function frameKind(v: unknown): FrameKind {
  return typeof v === 'string' && frameKinds.includes(v) ? (v as FrameKind) : 'unknown';
}

interface PendingNode {
  raw: unknown;
  parent: PendingNode | null;
  index: number;
  into: FlameNode[];
}

/** `root.children[3].children[0]`: built only when something is wrong, so valid trees cost nothing. */
function pendingPath(item: PendingNode, rootPath: string): string {
  const parts: string[] = [];
  for (let p = item; p.parent; p = p.parent) parts.push(`.children[${p.index}]`);
  return rootPath + parts.reverse().join('');
}

/**
 * Iterative so that deep stacks (perf allows 127+ frames, merged trees more) cannot overflow. Trees
 * have tens of thousands of nodes, so the checks are inline and error paths are built lazily.
 */
export function decodeFlameNode(v: unknown, path = 'root'): FlameNode {
  const top: FlameNode[] = [];
  const stack: PendingNode[] = [{ raw: v, parent: null, index: 0, into: top }];
  for (let item = stack.pop(); item; item = stack.pop()) {
    const { raw } = item;
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new DecodeError(pendingPath(item, path), 'object', raw);
    const o = raw as Obj;
    const { name, value, samples, children } = o;
    if (typeof name !== 'string') throw new DecodeError(`${pendingPath(item, path)}.name`, 'string', name);
    if (typeof value !== 'number' || Number.isNaN(value)) throw new DecodeError(`${pendingPath(item, path)}.value`, 'number', value);
    let count = 0;
    if (samples !== null && samples !== undefined) {
      if (typeof samples !== 'number' || Number.isNaN(samples)) throw new DecodeError(`${pendingPath(item, path)}.samples`, 'number', samples);
      count = samples;
    }
    const node: FlameNode = { name, value, samples: count, kind: frameKind(o.kind), children: [] };
    if (o.truncated === true) node.truncated = true;
    if (typeof o.folded_frames === 'number') node.folded_frames = o.folded_frames;
    item.into.push(node);
    if (children === null || children === undefined) continue;
    if (!Array.isArray(children)) throw new DecodeError(`${pendingPath(item, path)}.children`, 'array', children);
    const kids: unknown[] = children;
    // Pushed in reverse so children are decoded, and appended, in order.
    for (let i = kids.length - 1; i >= 0; i -= 1) stack.push({ raw: kids[i], parent: item, index: i, into: node.children });
  }
  const root = top[0];
  if (!root) throw new DecodeError(path, 'object', v);
  return root;
}

export function decodeFlame(v: unknown): FlameResponse {
  const o = obj(v, 'flame');
  return {
    root: decodeFlameNode(o.root, 'flame.root'),
    total: num(o.total, 'flame.total'),
    total_samples: nnum(o.total_samples, 'flame.total_samples') ?? 0,
    unit: nstr(o.unit, 'flame.unit') ?? 'samples',
    event: nstr(o.event, 'flame.event') ?? '',
    events: o.events == null ? [] : arr(o.events, 'flame.events', str),
    node_count: nnum(o.node_count, 'flame.node_count') ?? 0,
    pruned_nodes: nnum(o.pruned_nodes, 'flame.pruned_nodes') ?? 0,
    prune_threshold: nnum(o.prune_threshold, 'flame.prune_threshold') ?? 0,
    focus: o.focus == null ? [] : arr(o.focus, 'flame.focus', str),
    max_depth: nnum(o.max_depth, 'flame.max_depth') ?? 0,
    deep_nodes: nnum(o.deep_nodes, 'flame.deep_nodes') ?? 0,
  };
}

function numberRecord(v: unknown, path: string): Record<string, number> {
  const o = obj(v, path);
  const out: Record<string, number> = {};
  for (const [k, val] of Object.entries(o)) out[k] = num(val, `${path}.${k}`);
  return out;
}

function stringRecord(v: unknown, path: string): Record<string, string> {
  const o = obj(v, path);
  const out: Record<string, string> = {};
  for (const [k, val] of Object.entries(o)) out[k] = val === null || val === undefined ? '' : typeof val === 'string' ? val : JSON.stringify(val);
  return out;
}

function decodeTraceEvent(v: unknown, path: string): TraceEvent {
  const o = obj(v, path);
  return {
    capture_id: num(o.capture_id, `${path}.capture_id`),
    ts: str(o.ts, `${path}.ts`),
    duration_ns: nnum(o.duration_ns, `${path}.duration_ns`),
    kind: str(o.kind, `${path}.kind`),
    name: nstr(o.name, `${path}.name`) ?? '',
    pid: nnum(o.pid, `${path}.pid`),
    tid: nnum(o.tid, `${path}.tid`),
    comm: nstr(o.comm, `${path}.comm`),
    cpu: nnum(o.cpu, `${path}.cpu`),
    state: nstr(o.state, `${path}.state`),
    stack_id: nnum(o.stack_id, `${path}.stack_id`),
    waker_tid: nnum(o.waker_tid, `${path}.waker_tid`),
    args: nstr(o.args, `${path}.args`),
    result: nstr(o.result, `${path}.result`),
    attrs: o.attrs == null ? null : obj(o.attrs, `${path}.attrs`),
  };
}

export function decodeEventsPage(v: unknown): EventsPage {
  const o = obj(v, 'events');
  return { total: num(o.total, 'events.total'), events: arr(o.events, 'events.events', decodeTraceEvent) };
}

export const decodeStack = (v: unknown): StackFrame[] =>
  arr(v, 'stack', (f, path) => {
    const o = obj(f, path);
    return { name: str(o.name, `${path}.name`), kind: nstr(o.kind, `${path}.kind`) ?? 'unknown' };
  });

const metricKind = oneOf(METRIC_KINDS);
const drawnAs = oneOf(['values', 'rate'] as const);

function decodeSeries(v: unknown, path: string): MetricSeries {
  const o = obj(v, path);
  return {
    id: num(o.id, `${path}.id`),
    capture_id: num(o.capture_id, `${path}.capture_id`),
    name: str(o.name, `${path}.name`),
    labels: o.labels == null ? {} : stringRecord(o.labels, `${path}.labels`),
    unit: nstr(o.unit, `${path}.unit`) ?? '',
    points: nnum(o.points, `${path}.points`) ?? 0,
    first: nstr(o.first, `${path}.first`),
    last: nstr(o.last, `${path}.last`),
    host: nstr(o.host, `${path}.host`),
    capture_filename: nstr(o.capture_filename, `${path}.capture_filename`),
    capture_start: nstr(o.capture_start, `${path}.capture_start`),
    named_kind: o.named_kind == null ? 'gauge' : metricKind(o.named_kind, `${path}.named_kind`),
  };
}

export const decodeSeriesList = (v: unknown): MetricSeries[] => arr(v, 'series', decodeSeries);

function decodePoint(v: unknown, path: string): MetricPoint {
  const o = obj(v, path);
  return {
    ts: str(o.ts, `${path}.ts`),
    avg: num(o.avg, `${path}.avg`),
    min: num(o.min, `${path}.min`),
    max: num(o.max, `${path}.max`),
    count: nnum(o.count, `${path}.count`) ?? 1,
    p50: nnum(o.p50, `${path}.p50`),
    p90: nnum(o.p90, `${path}.p90`),
    p99: nnum(o.p99, `${path}.p99`),
  };
}

export function decodeMetricPoints(v: unknown): MetricPoints {
  const o = obj(v, 'points');
  return {
    series_id: num(o.series_id, 'points.series_id'),
    bucket_ns: nnum(o.bucket_ns, 'points.bucket_ns') ?? 0,
    points: arr(o.points, 'points.points', decodePoint),
    kind: o.kind == null ? 'gauge' : metricKind(o.kind, 'points.kind'),
    kind_reason: nstr(o.kind_reason, 'points.kind_reason') ?? '',
    drawn: o.drawn == null ? 'values' : drawnAs(o.drawn, 'points.drawn'),
    unit: nstr(o.unit, 'points.unit') ?? '',
    start: nstr(o.start, 'points.start'),
    end: nstr(o.end, 'points.end'),
    resets: nnum(o.resets, 'points.resets') ?? 0,
  };
}

export const decodeDocuments = (v: unknown): CaptureDocument[] =>
  arr(v, 'documents', (d, path) => {
    const o = obj(d, path);
    return { kind: str(o.kind, `${path}.kind`), content: o.content };
  });

export function decodeToken(v: unknown, path = 'token'): ApiToken {
  const o = obj(v, path);
  return {
    id: num(o.id, `${path}.id`),
    name: nstr(o.name, `${path}.name`) ?? '',
    prefix: nstr(o.prefix, `${path}.prefix`) ?? '',
    created_at: str(o.created_at, `${path}.created_at`),
    last_used_at: nstr(o.last_used_at, `${path}.last_used_at`),
    revoked_at: nstr(o.revoked_at, `${path}.revoked_at`),
    incident_id: nnum(o.incident_id, `${path}.incident_id`),
    host: nstr(o.host, `${path}.host`),
    expires_at: nstr(o.expires_at, `${path}.expires_at`),
    created_by: nnum(o.created_by, `${path}.created_by`),
  };
}

export const decodeTokens = (v: unknown): ApiToken[] => arr(v, 'tokens', decodeToken);

export function decodeNewToken(v: unknown): NewApiToken {
  const o = obj(v, 'token');
  return { ...decodeToken(v), secret: str(o.secret, 'token.secret') };
}
