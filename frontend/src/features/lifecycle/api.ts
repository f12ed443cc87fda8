/** The lifecycle routes: edit an incident, the trash, purging, retention and storage. Types (the API's) and calls. */
import { apiUrl, type Schemas } from '../../api/contract';
import { deleteRequest, getJson, patchJson, postJson, postNoContent, putJson } from '../../api/http';
import type { Incident } from '../../api/types';

/** Only the fields sent change; `members` replaces the member list. */
export type IncidentPatch = Schemas['IncidentPatch'];

export type TrashedIncident = Schemas['TrashedIncident'];
export type TrashedCapture = Schemas['TrashedCapture'];
export type Trash = Schemas['TrashOut'];

/** Days after which the retention task acts; null: never. */
export type RetentionPolicy = Schemas['RetentionPolicy'];

export type IncidentStorage = Schemas['StorageOut'];

export const patchIncident = (id: number, patch: IncidentPatch): Promise<Incident> =>
  patchJson(apiUrl('/api/incidents/{incident_id}', { incident_id: id }), patch);

export const trashIncident = (id: number): Promise<void> => deleteRequest(apiUrl('/api/incidents/{incident_id}', { incident_id: id }));

export const restoreIncident = (id: number): Promise<Incident> =>
  postJson(apiUrl('/api/incidents/{incident_id}/restore', { incident_id: id }), undefined);

export const trashCapture = (id: number): Promise<void> => deleteRequest(apiUrl('/api/captures/{capture_id}', { capture_id: id }));

export const restoreCapture = (id: number): Promise<void> => postNoContent(apiUrl('/api/captures/{capture_id}/restore', { capture_id: id }));

export const listTrash = (signal?: AbortSignal): Promise<Trash> => getJson(apiUrl('/api/trash'), signal);

export const purgeIncident = (id: number): Promise<void> => deleteRequest(apiUrl('/api/trash/incidents/{incident_id}', { incident_id: id }));

export const purgeCapture = (id: number): Promise<void> => deleteRequest(apiUrl('/api/trash/captures/{capture_id}', { capture_id: id }));

export const getRetention = (signal?: AbortSignal): Promise<RetentionPolicy> => getJson(apiUrl('/api/retention'), signal);

export const putRetention = (policy: RetentionPolicy): Promise<RetentionPolicy> => putJson(apiUrl('/api/retention'), policy);

export const getStorage = (incident: number, signal?: AbortSignal): Promise<IncidentStorage> =>
  getJson(apiUrl('/api/incidents/{incident_id}/storage', { incident_id: incident }), signal);
