/** Watch mode's routes: signatures, webhooks, alerts and the hosts' watch streams. Types (the API's) and calls. */
import { apiUrl, membersOf, routeQuery, type Schemas } from '../../api/contract';
import { deleteRequest, getJson, postJson, putJson } from '../../api/http';

export type Signature = Schemas['SignatureOut'];
export type SignatureRequest = Schemas['SignatureIn'];
export type Webhook = Schemas['WebhookOut'];
export type WebhookRequest = Schemas['WebhookIn'];
export type Alert = Schemas['AlertOut'];
export type Delivery = Schemas['DeliveryOut'];
export type WatchStream = Schemas['WatchStreamOut'];
export type OpenedIncident = Schemas['OpenedIncidentOut'];
export type DayBefore = Schemas['DayBeforeOut'];

/** What a signature searches: CPU samples, off-CPU time, or the built-in detectors' findings. */
export type SignatureSource = Signature['source'];
export const SIGNATURE_SOURCES = membersOf<SignatureSource>({ cpu: true, 'off-cpu': true, finding: true });

/** The payload a webhook receives, as its receiver expects it. */
export type WebhookFormat = Webhook['format'];
export const WEBHOOK_FORMATS = membersOf<WebhookFormat>({ json: true, alertmanager: true, slack: true });

/** How many alerts the page shows: the server's default, newest first. */
export const ALERTS_SHOWN = 100;

export const listSignatures = (signal?: AbortSignal): Promise<Signature[]> => getJson(apiUrl('/api/signatures'), signal);

export const createSignature = (body: SignatureRequest): Promise<Signature> => postJson(apiUrl('/api/signatures'), body);

export const changeSignature = (id: number, body: SignatureRequest): Promise<Signature> =>
  putJson(apiUrl('/api/signatures/{signature_id}', { signature_id: id }), body);

export const deleteSignature = (id: number): Promise<void> => deleteRequest(apiUrl('/api/signatures/{signature_id}', { signature_id: id }));

export const listWebhooks = (signal?: AbortSignal): Promise<Webhook[]> => getJson(apiUrl('/api/webhooks'), signal);

export const createWebhook = (body: WebhookRequest): Promise<Webhook> => postJson(apiUrl('/api/webhooks'), body);

export const changeWebhook = (id: number, body: WebhookRequest): Promise<Webhook> =>
  putJson(apiUrl('/api/webhooks/{webhook_id}', { webhook_id: id }), body);

export const deleteWebhook = (id: number): Promise<void> => deleteRequest(apiUrl('/api/webhooks/{webhook_id}', { webhook_id: id }));

export const listAlerts = (limit: number, signal?: AbortSignal): Promise<Alert[]> =>
  getJson(apiUrl('/api/alerts', routeQuery<'/api/alerts'>({ limit: String(limit) })), signal);

/** The incident holding the alert's matching captures; asked again, the one opened the first time. */
export const openIncident = (alertId: number): Promise<OpenedIncident> =>
  postJson(apiUrl('/api/alerts/{alert_id}/incident', { alert_id: alertId }), undefined);

/** Each watched host's round from the same time the day before, copied in and made the baseline. */
export const addDayBefore = (incidentId: number): Promise<DayBefore> =>
  postJson(apiUrl('/api/incidents/{incident_id}/day-before', { incident_id: incidentId }), undefined);

export const listStreams = (signal?: AbortSignal): Promise<WatchStream[]> => getJson(apiUrl('/api/watch/streams'), signal);
