/** The snapshot endpoints: an incident's snapshots (one per take) and the config diff between two. Types (the API's) and calls. */
import { apiUrl, routeQuery, type Schemas } from '../../api/contract';
import { getJson } from '../../api/http';

/** One snapshot of an incident: a capture, and which take of it (0 for the collector's). */
export type SnapshotRef = Schemas['SnapshotRef'];
export type KeyChange = Schemas['KeyChangeOut'];
export type KeyStatus = KeyChange['status'];
export type OnlyRead = Schemas['OnlyReadOut'];
/** B's settings against A's: changed first, then added and removed, then unchanged. */
export type ConfigDiff = Schemas['ConfigDiffOut'];

export const listSnapshots = (incidentId: number, signal?: AbortSignal): Promise<SnapshotRef[]> =>
  getJson(apiUrl('/api/incidents/{incident_id}/snapshots', { incident_id: incidentId }), signal);

export const getConfigDiff = (a: string, b: string, signal?: AbortSignal): Promise<ConfigDiff> =>
  getJson(apiUrl('/api/snapshots/diff', routeQuery<'/api/snapshots/diff'>({ a, b })), signal);
