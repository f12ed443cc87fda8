/**
 * The data an exported bundle embeds in its `index.html` (one JSON script element filled in by the
 * exporter), decoded at the boundary: what the home page lists and the answers the views replay. The
 * answers, the incident's too, are the console's own, written by the same version as this viewer
 * (the exporter builds both into one file), so they are typed by the API contract as they are.
 */
import { arr, bool, num, obj, oneOf, str } from '../api/decode';
import type { Incident } from '../api/types';

/** The element the exporter fills: its text replaces the placeholder comment of the template. */
export const BUNDLE_ELEMENT_ID = 'stallscope-bundle';
export const BUNDLE_FORMAT = 'stallscope-bundle';
/** The newest embedded-data version this viewer reads. */
export const BUNDLE_VERSION = 1;

export const VIEW_KINDS = ['flame', 'diff', 'threads', 'timeline', 'heatmap', 'incident', 'events', 'metrics', 'snapshot', 'config-diff'] as const;
export type BundleViewKind = (typeof VIEW_KINDS)[number];

export interface BundleView {
  kind: BundleViewKind;
  title: string;
  /** A console route with its query, e.g. `/flame?incident=4&captures=3,4`; opened as `#<route>`. */
  route: string;
}

export interface BundleFile {
  /** Beside index.html in the zip, e.g. `views/1-flame/stacks.folded`. */
  path: string;
  title: string;
}

export interface BundleData {
  stallscopeVersion: string;
  exportedAt: string;
  redacted: boolean;
  incident: Incident;
  views: BundleView[];
  /** bundleKey(url) -> the JSON body the console answered for that GET. */
  responses: ReadonlyMap<string, unknown>;
  files: BundleFile[];
}

const viewKind = oneOf(VIEW_KINDS);

function decodeView(v: unknown, path: string): BundleView {
  const o = obj(v, path);
  const route = str(o.route, `${path}.route`);
  if (!route.startsWith('/')) throw new Error(`${path}.route must start with "/": ${route}`);
  return { kind: viewKind(o.kind, `${path}.kind`), title: str(o.title, `${path}.title`), route };
}

function decodeFile(v: unknown, path: string): BundleFile {
  const o = obj(v, path);
  return { path: str(o.path, `${path}.path`), title: str(o.title, `${path}.title`) };
}

export function decodeBundle(v: unknown): BundleData {
  const o = obj(v, 'bundle');
  if (o.format !== BUNDLE_FORMAT) throw new Error(`not a Stallscope bundle (format ${JSON.stringify(o.format)})`);
  const version = o.version;
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1 || version > BUNDLE_VERSION) {
    throw new Error(`bundle version ${JSON.stringify(version)} is not one this viewer reads (1 to ${BUNDLE_VERSION})`);
  }
  const responses = new Map(Object.entries(obj(o.responses, 'bundle.responses')));
  const incident = obj(o.incident, 'bundle.incident') as unknown as Incident;
  num(incident.id, 'bundle.incident.id');
  // The incident travels on its own as well; the incident page asks for it like any other answer.
  const incidentKey = `/api/incidents/${incident.id}`;
  if (!responses.has(incidentKey)) responses.set(incidentKey, o.incident);
  return {
    stallscopeVersion: str(o.stallscope_version, 'bundle.stallscope_version'),
    exportedAt: str(o.exported_at, 'bundle.exported_at'),
    redacted: bool(o.redacted, 'bundle.redacted'),
    incident,
    views: arr(o.views, 'bundle.views', decodeView),
    responses,
    files: o.files === undefined || o.files === null ? [] : arr(o.files, 'bundle.files', decodeFile),
  };
}

/** The embedded JSON's text, or null when the page holds none (the template itself, opened as it is). */
export function embeddedBundleText(doc: Document): string | null {
  const text = doc.getElementById(BUNDLE_ELEMENT_ID)?.textContent.trim() ?? '';
  return text === '' || text.startsWith('<!--') ? null : text;
}
