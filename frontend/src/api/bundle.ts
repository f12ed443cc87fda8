/**
 * Escalation bundles: the redaction preview, the export (a zip) and the import of a bundle as a new
 * incident. Types, decoders and calls; the dialog that uses them is in features/bundle/.
 */
import { arr, bool, nullable, num, obj, str } from './decode';
import { postForBlob, postJson } from './http';
import { uploadBody, type UploadHandle } from './upload';

/** One of the policy's own patterns: every match becomes `<name>-N`. */
export interface CustomRedactionRule {
  name: string;
  pattern: string;
  enabled: boolean;
}

/**
 * A redaction policy as the preview returns it and a custom export sends it back (the server's
 * `policy_to_json` shape; it refuses unknown keys, so nothing else is kept).
 */
export interface RedactionPolicy {
  /** Built-in rules by id (hostnames, users, addresses, paths, arguments, containers): on or off. */
  rules: Record<string, boolean>;
  path_prefixes: string[];
  path_depth: number;
  /** The `symbols` rule: application symbols become `sym-<hash>`. */
  hash_symbols: boolean;
  custom: CustomRedactionRule[];
}

export type RedactionMode = 'default' | 'none' | 'custom';

export interface RedactionChoice {
  mode: RedactionMode;
  /** With mode `custom`: the edited policy. */
  policy?: RedactionPolicy;
}

/** What part of an incident to export; an absent field means all of it. */
export interface BundleRequest {
  captures?: number[];
  /** UTC ISO instants. */
  start?: string;
  end?: string;
  views?: string[];
  findings: boolean;
  annotations: boolean;
  postmortem: boolean;
  /** The raw captures too, redacted like the rest. */
  raw: boolean;
  redaction: RedactionChoice;
}

/** One match in context: `before` **`match`** `after`, written as `replacement`. */
export interface RedactionExample {
  source: string;
  before: string;
  match: string;
  after: string;
  replacement: string;
}

export interface PreviewRule {
  /** `hostnames`, …, `symbols`, or `custom:<name>`. */
  id: string;
  label: string;
  enabled: boolean;
  matches: number;
  examples: RedactionExample[];
}

export interface RedactionPreview {
  rules: PreviewRule[];
  policy: RedactionPolicy;
  /** How many texts the server looked at. */
  sources: number;
}

export interface ImportedCapture {
  id: number;
  filename: string;
  host: string | null;
}

export interface BundleImport {
  incident_id: number;
  captures: ImportedCapture[];
  /** What the bundle held that could not be imported, with why. */
  skipped: string[];
}

export function decodeRedactionPolicy(v: unknown, path = 'policy'): RedactionPolicy {
  const o = obj(v, path);
  const switches = obj(o.rules, `${path}.rules`);
  const rules: Record<string, boolean> = {};
  for (const [id, on] of Object.entries(switches)) rules[id] = bool(on, `${path}.rules.${id}`);
  return {
    rules,
    path_prefixes: arr(o.path_prefixes, `${path}.path_prefixes`, str),
    path_depth: num(o.path_depth, `${path}.path_depth`),
    hash_symbols: bool(o.hash_symbols, `${path}.hash_symbols`),
    custom: arr(o.custom, `${path}.custom`, (c, p) => {
      const r = obj(c, p);
      return { name: str(r.name, `${p}.name`), pattern: str(r.pattern, `${p}.pattern`), enabled: bool(r.enabled, `${p}.enabled`) };
    }),
  };
}

function decodeExample(v: unknown, path: string): RedactionExample {
  const o = obj(v, path);
  return {
    source: str(o.source, `${path}.source`),
    before: str(o.before, `${path}.before`),
    match: str(o.match, `${path}.match`),
    after: str(o.after, `${path}.after`),
    replacement: str(o.replacement, `${path}.replacement`),
  };
}

function decodePreviewRule(v: unknown, path: string): PreviewRule {
  const o = obj(v, path);
  return {
    id: str(o.id, `${path}.id`),
    label: str(o.label, `${path}.label`),
    enabled: bool(o.enabled, `${path}.enabled`),
    matches: num(o.matches, `${path}.matches`),
    examples: arr(o.examples, `${path}.examples`, decodeExample),
  };
}

export function decodeRedactionPreview(v: unknown): RedactionPreview {
  const o = obj(v, 'preview');
  return {
    rules: arr(o.rules, 'preview.rules', decodePreviewRule),
    policy: decodeRedactionPolicy(o.policy, 'preview.policy'),
    sources: num(o.sources, 'preview.sources'),
  };
}

export function decodeBundleImport(v: unknown): BundleImport {
  const o = obj(v, 'import');
  return {
    incident_id: num(o.incident_id, 'import.incident_id'),
    captures: arr(o.captures, 'import.captures', (c, p) => {
      const r = obj(c, p);
      return { id: num(r.id, `${p}.id`), filename: str(r.filename, `${p}.filename`), host: nullable(str)(r.host, `${p}.host`) };
    }),
    skipped: arr(o.skipped, 'import.skipped', str),
  };
}

export const previewRedaction = (incidentId: number, body: BundleRequest): Promise<RedactionPreview> =>
  postJson(`/api/incidents/${incidentId}/bundle/preview`, body, decodeRedactionPreview);

/** The bundle's zip; building it can take tens of seconds on a big incident. */
export const exportBundle = (incidentId: number, body: BundleRequest, signal?: AbortSignal): Promise<Blob> =>
  postForBlob(`/api/incidents/${incidentId}/bundle`, body, signal);

/** The name the server gives the zip, used for the download too. */
export const bundleFilename = (incidentId: number): string => `stallscope-incident-${incidentId}.zip`;

export const bundleImportUrl = (filename: string): string => `/api/bundles?${new URLSearchParams({ filename }).toString()}`;

/** Upload a bundle (with progress) as a new incident; its captures then parse like uploads. */
export const importBundle = (file: File, onProgress: (fraction: number) => void): UploadHandle<BundleImport> =>
  uploadBody(bundleImportUrl(file.name), file, decodeBundleImport, onProgress);
