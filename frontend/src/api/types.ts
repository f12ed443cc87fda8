/** Shapes of the Stallscope HTTP API. Times are UTC ISO-8601 strings. */

export const SEVERITIES = ['sev1', 'sev2', 'sev3', 'sev4'] as const;
export type Severity = (typeof SEVERITIES)[number];

export interface Incident {
  id: number;
  title: string;
  severity: Severity;
  started_at: string;
  summary: string;
  created_at: string;
  capture_count: number;
}

export interface NewIncident {
  title: string;
  severity: Severity;
  started_at: string;
  summary: string;
}

export const CAPTURE_STATUSES = ['queued', 'parsing', 'ready', 'partial', 'failed'] as const;
export type CaptureStatus = (typeof CAPTURE_STATUSES)[number];

export interface CaptureWarning {
  line: number;
  message: string;
}

export interface EventCount {
  name: string;
  samples: number;
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
  clock: { mode: string; note: string };
  created_at: string;
  parsed_at: string | null;
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
}

export interface FlameResponse {
  root: FlameNode;
  total: number;
  total_samples: number;
  unit: string;
  event: string;
  node_count: number;
  pruned_nodes: number;
  /** Fraction of the total below which frames were folded into "(other)". */
  prune_threshold: number;
  focus: string[];
}

/** Query parameters shared by /api/flame and /api/flame/folded. */
export interface FlameQuery {
  captures: number[];
  event?: string | undefined;
  pid?: number | undefined;
  tid?: number | undefined;
  comm?: string | undefined;
  /** UTC ISO-8601 */
  start?: string | undefined;
  /** UTC ISO-8601 */
  end?: string | undefined;
  focus?: string[] | undefined;
}
