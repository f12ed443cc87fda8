/** Shapes of the Stallscope HTTP API. Times are UTC ISO-8601 strings. */

export const SEVERITIES = ['sev1', 'sev2', 'sev3', 'sev4'] as const;
export type Severity = (typeof SEVERITIES)[number];

/** `team`: everyone with an account; `restricted`: its members and admins only. */
export const VISIBILITIES = ['team', 'restricted'] as const;
export type Visibility = (typeof VISIBILITIES)[number];

export interface Incident {
  id: number;
  title: string;
  severity: Severity;
  started_at: string;
  summary: string;
  created_at: string;
  capture_count: number;
  visibility: Visibility;
  /** User names of a restricted incident's members. */
  members: string[];
  /**
   * Where the incident is in its lifecycle, and when it first reached each status (null: not yet).
   * Always filled by the decoder; optional so objects written before the lifecycle still type-check.
   */
  status?: IncidentStatus;
  identified_at?: string | null;
  mitigated_at?: string | null;
  resolved_at?: string | null;
  root_cause?: string;
  remediation?: string;
  updated_at?: string | null;
}

/** In order: an incident moves forward through these (it may go back; the first stamps are kept). */
export const INCIDENT_STATUSES = ['investigating', 'identified', 'mitigated', 'resolved'] as const;
export type IncidentStatus = (typeof INCIDENT_STATUSES)[number];

export interface NewIncident {
  title: string;
  severity: Severity;
  started_at: string;
  summary: string;
  /** Absent: team. */
  visibility?: Visibility;
  /** User names; the creator is added when restricted. */
  members?: string[];
}

/** `empty`: the upload held no bytes, or only blank lines: parsed, nothing in it, not a failure. */
export const CAPTURE_STATUSES = ['queued', 'parsing', 'ready', 'partial', 'empty', 'failed'] as const;
export type CaptureStatus = (typeof CAPTURE_STATUSES)[number];

export interface CaptureWarning {
  line: number;
  message: string;
}

export interface EventCount {
  name: string;
  samples: number;
}

export const CLOCK_MODES = [
  'unaligned',
  'anchor',
  'host-anchor',
  'perf-tod',
  'realtime',
  'user-offset',
  'user-start',
  'none',
] as const;

export interface CaptureClock {
  /** One of CLOCK_MODES, or 'unknown' when the server said nothing. */
  mode: string;
  note: string;
  offset_ns: number;
  /** The user's shift of the whole capture. */
  shift_ns: number;
}

export interface Capture {
  id: number;
  incident_id: number;
  host: string | null;
  filename: string;
  format: string | null;
  status: CaptureStatus;
  /** 0..1 */
  progress: number;
  error: string | null;
  warnings: CaptureWarning[];
  dropped_lines: number;
  truncated: boolean;
  sha256: string;
  compression: string;
  size_bytes: number;
  size_uncompressed: number | null;
  sample_count: number;
  stack_count: number;
  thread_count: number;
  events: EventCount[];
  time_start: string | null;
  time_end: string | null;
  clock: CaptureClock;
  /** What the uploader said it is: cpu, offcpu, syscalls, metrics, snapshot, … */
  kind: string | null;
  /** Parsed record counts by key (samples, events, events.syscall, metric_points, …); absent = 0. */
  record_counts: Record<string, number>;
  /** Collector metadata (collector, commands, …); untrusted. */
  meta: Record<string, unknown>;
  created_at: string;
  parsed_at: string | null;
  /** Why the console queued this parse again by itself (its worker died, its message was lost). */
  recovery_note: string | null;
}

export interface ProcessFacet {
  pid: number | null;
  comm: string;
  samples: number;
}

export interface ThreadFacet {
  pid: number | null;
  tid: number | null;
  comm: string;
  samples: number;
}

export interface Facets {
  events: EventCount[];
  processes: ProcessFacet[];
  threads: ThreadFacet[];
  time_start: string | null;
  time_end: string | null;
}

export const FRAME_KINDS = [
  'root',
  'process',
  'user',
  'kernel',
  'jit',
  'inline',
  'unknown',
  'other',
  'deeper',
] as const;
export type FrameKind = (typeof FRAME_KINDS)[number];

export interface FlameNode {
  name: string;
  /** Inclusive weight of this frame, in the response's unit. */
  value: number;
  samples: number;
  kind: FrameKind;
  children: FlameNode[];
  /** Some of this frame's descendants were folded away by server-side pruning. */
  truncated?: boolean;
  /** A "(deeper)" frame: how many frames below the depth budget it stands for. */
  folded_frames?: number;
}

export interface FlameResponse {
  root: FlameNode;
  total: number;
  total_samples: number;
  unit: string;
  event: string;
  /** Off-CPU mode: the scheduler states present (S, D, R, …). */
  events: string[];
  node_count: number;
  pruned_nodes: number;
  /** Fraction of the total below which frames were folded into "(other)". */
  prune_threshold: number;
  focus: string[];
  /** Levels below the root sent at most; deeper frames are folded into "(deeper)" frames. */
  max_depth: number;
  /** Of `pruned_nodes`, the frames folded into "(deeper)" frames by the depth budget. */
  deep_nodes: number;
}

/** Query parameters shared by /api/flame and /api/flame/folded. */
export interface FlameQuery {
  captures: number[];
  /** 'off-cpu' for blocked time; absent for CPU samples. */
  source?: string | undefined;
  /** Off-CPU scheduler state (S, D, …). */
  state?: string | undefined;
  event?: string | undefined;
  pid?: number | undefined;
  tid?: number | undefined;
  comm?: string | undefined;
  /** UTC ISO-8601 */
  start?: string | undefined;
  /** UTC ISO-8601 */
  end?: string | undefined;
  /** Offsets inside every second, µs: `0-20000`, or `!0-20000` for outside them. */
  within?: string | undefined;
  focus?: string[] | undefined;
}

export const EVENT_KINDS = ['syscall', 'off-cpu', 'fault', 'function', 'tracepoint', 'on-cpu'] as const;

export interface TraceEvent {
  capture_id: number;
  /** UTC ISO-8601 with microseconds. */
  ts: string;
  /** null = unclosed: no closing event was seen. */
  duration_ns: number | null;
  kind: string;
  name: string;
  pid: number | null;
  tid: number | null;
  comm: string | null;
  cpu: number | null;
  state: string | null;
  stack_id: number | null;
  waker_tid: number | null;
  args: string | null;
  result: string | null;
  attrs: Record<string, unknown> | null;
}

export interface EventsPage {
  total: number;
  events: TraceEvent[];
}

export interface EventsQuery {
  captures: number[];
  kind?: string | undefined;
  name?: string | undefined;
  sort: 'duration' | 'time';
  descending: boolean;
  limit: number;
  offset: number;
}

export interface StackFrame {
  name: string;
  kind: string;
}

export interface MetricSeries {
  id: number;
  capture_id: number;
  name: string;
  labels: Record<string, string>;
  unit: string;
  points: number;
  first: string | null;
  last: string | null;
  /** The host of the series' capture, as the uploader named it. */
  host: string | null;
  capture_filename: string | null;
  /** The capture's first metric point: offset zero when runs are aligned by capture start. */
  capture_start: string | null;
  /** The kind its name and unit say; the points' answer also reads the values. */
  named_kind: MetricKind;
}

export interface MetricPoint {
  ts: string;
  avg: number;
  min: number;
  max: number;
  count: number;
  /** Per-bucket percentiles, for latency series drawn as values; null otherwise. */
  p50: number | null;
  p90: number | null;
  p99: number | null;
}

/** counter: cumulative, drawn as a rate; latency: a time per event, with percentiles; gauge: a level. */
export type MetricKind = 'counter' | 'latency' | 'gauge';
export const METRIC_KINDS: readonly MetricKind[] = ['counter', 'latency', 'gauge'];

export interface MetricPoints {
  series_id: number;
  bucket_ns: number;
  points: MetricPoint[];
  kind: MetricKind;
  /** Why the server read the series as that kind, in words. */
  kind_reason: string;
  /** `rate`: avg/min/max are increases per second; `values`: as stored. */
  drawn: 'values' | 'rate';
  /** Of the drawn values ('' without one). */
  unit: string;
  /** The bucket grid's first bucket starts here. */
  start: string | null;
  end: string | null;
  resets: number;
}

export interface CaptureDocument {
  kind: string;
  content: unknown;
}

export interface ApiToken {
  id: number;
  name: string;
  prefix: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
  /** Uploads only to this incident (null: any). */
  incident_id: number | null;
  /** Uploads only for this host (null: any). */
  host: string | null;
  /** No uploads after this time (null: never expires). */
  expires_at: string | null;
  /** The account that made it. */
  created_by: number | null;
}

/** A collector token's limits, all optional. */
export interface ApiTokenLimits {
  incident_id: number | null;
  host: string | null;
  expires_at: string | null;
}

export interface NewApiToken extends ApiToken {
  /** Shown once, at creation. */
  secret: string;
}
