/**
 * The API's shapes under the names the console uses: each is the schema generated from the back end
 * (contract.ts), never a copy of it. Times are UTC ISO-8601 strings.
 */
import { membersOf, type Schemas } from './contract';

export type Incident = Schemas['IncidentOut'];
export type NewIncident = Schemas['IncidentCreate'];

export type Severity = Incident['severity'];
export const SEVERITIES = membersOf<Severity>({ sev1: true, sev2: true, sev3: true, sev4: true });

/** `team`: everyone with an account; `restricted`: its members and admins only. */
export type Visibility = Incident['visibility'];

/** In order: an incident moves forward through these (it may go back; the first stamps are kept). */
export type IncidentStatus = Incident['status'];
export const INCIDENT_STATUSES = membersOf<IncidentStatus>({ investigating: true, identified: true, mitigated: true, resolved: true });

export type Capture = Schemas['CaptureOut'];
/** `empty`: the upload held no bytes, or only blank lines: parsed, nothing in it, not a failure. */
export type CaptureStatus = Capture['status'];
export type CaptureClock = Capture['clock'];
/** How a capture's times were put on UTC; null until a parse has mapped its clock. */
export type ClockMode = NonNullable<CaptureClock['mode']>;

export type Facets = Schemas['FacetsOut'];

export type FlameResponse = Schemas['FlameAnswer'];
export type FlameNode = Schemas['FlameNode'];
export type FrameKind = FlameNode['kind'];

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

export type TraceEvent = Schemas['stallscope__events__schemas__EventOut'];
export type EventKind = TraceEvent['kind'];
export const EVENT_KINDS = membersOf<EventKind>({ syscall: true, 'off-cpu': true, fault: true, function: true, tracepoint: true, 'on-cpu': true });
export type EventsPage = Schemas['EventPage'];

export interface EventsQuery {
  captures: number[];
  kind?: string | undefined;
  name?: string | undefined;
  sort: 'duration' | 'time';
  descending: boolean;
  limit: number;
  offset: number;
}

export type StackFrame = Schemas['FrameOut'];

export type MetricSeries = Schemas['SeriesOut'];
export type MetricPoints = Schemas['SeriesPoints'];
export type MetricPoint = Schemas['PointOut'];
/** counter: cumulative, drawn as a rate; latency: a time per event, with percentiles; gauge: a level. */
export type MetricKind = MetricPoints['kind'];

export type CaptureDocument = Schemas['DocumentOut'];

export type ApiToken = Schemas['TokenOut'];
export type NewApiToken = Schemas['TokenCreated'];
/** A collector token's limits, all optional. */
export type ApiTokenLimits = Pick<Schemas['TokenCreate'], 'incident_id' | 'host' | 'expires_at'>;
