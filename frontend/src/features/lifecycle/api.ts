/** The lifecycle routes: edit an incident, the trash, purging, retention and storage. Types, decoders, calls. */
import { arr, decodeIncident, nullable, num, obj, str } from '../../api/decode';
import { deleteRequest, getJson, patchJson, postJson, postNoContent, putJson } from '../../api/http';
import type { Incident, IncidentStatus, Severity, Visibility } from '../../api/types';

/** Only the fields sent change; `members` replaces the member list. */
export interface IncidentPatch {
  title?: string;
  summary?: string;
  severity?: Severity;
  status?: IncidentStatus;
  root_cause?: string;
  remediation?: string;
  visibility?: Visibility;
  members?: string[];
}

export interface TrashedIncident {
  id: number;
  title: string;
  deleted_at: string;
  /** When the retention task removes it for good. */
  purge_after: string;
  capture_count: number;
}

export interface TrashedCapture {
  id: number;
  incident_id: number;
  incident_title: string;
  filename: string;
  size_bytes: number;
  deleted_at: string;
  purge_after: string;
}

export interface Trash {
  trash_days: number;
  incidents: TrashedIncident[];
  captures: TrashedCapture[];
}

/** Days after which the retention task acts; null: never. */
export interface RetentionPolicy {
  resolved_after_days: number | null;
  failed_after_days: number | null;
  trash_days: number;
}

export interface IncidentStorage {
  incident_id: number;
  captures: number;
  trashed_captures: number;
  /** Bytes of the uploads as stored; a blob two captures share counts once. */
  raw_bytes: number;
  /** Of `raw_bytes`, what other incidents' captures also hold. */
  shared_raw_bytes: number;
  /** Stored rows per table. */
  rows: Record<string, number>;
}

const nnum = nullable(num);

export function decodeTrashedIncident(v: unknown, path = 'incident'): TrashedIncident {
  const o = obj(v, path);
  return {
    id: num(o.id, `${path}.id`),
    title: str(o.title, `${path}.title`),
    deleted_at: str(o.deleted_at, `${path}.deleted_at`),
    purge_after: str(o.purge_after, `${path}.purge_after`),
    capture_count: num(o.capture_count, `${path}.capture_count`),
  };
}

export function decodeTrashedCapture(v: unknown, path = 'capture'): TrashedCapture {
  const o = obj(v, path);
  return {
    id: num(o.id, `${path}.id`),
    incident_id: num(o.incident_id, `${path}.incident_id`),
    incident_title: str(o.incident_title, `${path}.incident_title`),
    filename: str(o.filename, `${path}.filename`),
    size_bytes: num(o.size_bytes, `${path}.size_bytes`),
    deleted_at: str(o.deleted_at, `${path}.deleted_at`),
    purge_after: str(o.purge_after, `${path}.purge_after`),
  };
}

export function decodeTrash(v: unknown): Trash {
  const o = obj(v, 'trash');
  return {
    trash_days: num(o.trash_days, 'trash.trash_days'),
    incidents: arr(o.incidents, 'trash.incidents', decodeTrashedIncident),
    captures: arr(o.captures, 'trash.captures', decodeTrashedCapture),
  };
}

export function decodeRetention(v: unknown): RetentionPolicy {
  const o = obj(v, 'retention');
  return {
    resolved_after_days: nnum(o.resolved_after_days, 'retention.resolved_after_days'),
    failed_after_days: nnum(o.failed_after_days, 'retention.failed_after_days'),
    trash_days: num(o.trash_days, 'retention.trash_days'),
  };
}

export function decodeStorage(v: unknown): IncidentStorage {
  const o = obj(v, 'storage');
  const rowsObj = obj(o.rows, 'storage.rows');
  const rows: Record<string, number> = {};
  for (const [table, n] of Object.entries(rowsObj)) rows[table] = num(n, `storage.rows.${table}`);
  return {
    incident_id: num(o.incident_id, 'storage.incident_id'),
    captures: num(o.captures, 'storage.captures'),
    trashed_captures: num(o.trashed_captures, 'storage.trashed_captures'),
    raw_bytes: num(o.raw_bytes, 'storage.raw_bytes'),
    shared_raw_bytes: num(o.shared_raw_bytes, 'storage.shared_raw_bytes'),
    rows,
  };
}

export const patchIncident = (id: number, patch: IncidentPatch): Promise<Incident> =>
  patchJson(`/api/incidents/${id}`, patch, (v) => decodeIncident(v));

export const trashIncident = (id: number): Promise<void> => deleteRequest(`/api/incidents/${id}`);

export const restoreIncident = (id: number): Promise<Incident> =>
  postJson(`/api/incidents/${id}/restore`, {}, (v) => decodeIncident(v));

export const trashCapture = (id: number): Promise<void> => deleteRequest(`/api/captures/${id}`);

export const restoreCapture = (id: number): Promise<void> => postNoContent(`/api/captures/${id}/restore`);

export const listTrash = (signal?: AbortSignal): Promise<Trash> => getJson('/api/trash', decodeTrash, signal);

export const purgeIncident = (id: number): Promise<void> => deleteRequest(`/api/trash/incidents/${id}`);

export const purgeCapture = (id: number): Promise<void> => deleteRequest(`/api/trash/captures/${id}`);

export const getRetention = (signal?: AbortSignal): Promise<RetentionPolicy> => getJson('/api/retention', decodeRetention, signal);

export const putRetention = (policy: RetentionPolicy): Promise<RetentionPolicy> => putJson('/api/retention', policy, decodeRetention);

export const getStorage = (incident: number, signal?: AbortSignal): Promise<IncidentStorage> =>
  getJson(`/api/incidents/${incident}/storage`, decodeStorage, signal);
