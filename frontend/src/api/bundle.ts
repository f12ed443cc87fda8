/**
 * Escalation bundles: the redaction preview, the export (a zip) and the import of a bundle as a new
 * incident. Types (the API's) and calls; the dialog that uses them is in features/bundle/.
 */
import { apiUrl, routeQuery, type ApiUrl, type Schemas } from './contract';
import { postForBlob, postJson } from './http';
import { uploadBody, type UploadHandle } from './upload';

/** One of the policy's own patterns: every match becomes `<name>-N`. */
export type CustomRedactionRule = Schemas['CustomRuleOut'];

/**
 * A redaction policy as the preview returns it and a custom export sends it back (the server's
 * `policy_to_json` shape; it refuses unknown keys, so nothing else is kept).
 */
export type RedactionPolicy = Schemas['RedactionPolicyOut'];

export type RedactionMode = NonNullable<Schemas['RedactionChoice']['mode']>;
/** The redaction of an export, as this console always sends it: with its mode. */
export type RedactionChoice = Schemas['RedactionChoice'] & { mode: RedactionMode };

/** What part of an incident to export (an absent field means all of it), with its redaction. */
export type BundleRequest = Schemas['BundleRequest'] & { redaction: RedactionChoice };

/** One match in context: `before` **`match`** `after`, written as `replacement`. */
export type RedactionExample = Schemas['PreviewExample'];
export type PreviewRule = Schemas['PreviewRule'];
export type RedactionPreview = Schemas['RedactionPreviewOut'];
export type ImportedCapture = Schemas['ImportedCaptureOut'];
export type BundleImport = Schemas['BundleImportOut'];

export const previewRedaction = (incidentId: number, body: BundleRequest): Promise<RedactionPreview> =>
  postJson(apiUrl('/api/incidents/{incident_id}/bundle/preview', { incident_id: incidentId }), body);

/** The bundle's zip; building it can take tens of seconds on a big incident. */
export const exportBundle = (incidentId: number, body: BundleRequest, signal?: AbortSignal): Promise<Blob> =>
  postForBlob(apiUrl('/api/incidents/{incident_id}/bundle', { incident_id: incidentId }), body, signal);

/** The name the server gives the zip, used for the download too. */
export const bundleFilename = (incidentId: number): string => `stallscope-incident-${incidentId}.zip`;

export const bundleImportUrl = (filename: string): ApiUrl<'/api/bundles'> =>
  apiUrl('/api/bundles', routeQuery<'/api/bundles', 'post'>({ filename }));

/** Upload a bundle (with progress) as a new incident; its captures then parse like uploads. */
export const importBundle = (file: File, onProgress: (fraction: number) => void): UploadHandle<BundleImport> =>
  uploadBody(bundleImportUrl(file.name), file, onProgress);
