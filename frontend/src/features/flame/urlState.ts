/**
 * The whole flame-graph view lives in the URL so a copied link reproduces it. Versioned (`v`), with
 * upgraders from older versions, after firefox-devtools/profiler's url-handling.
 */

/**
 * 1: captures, event, pid/tid/comm, start/end, q, zoom.
 * 2: adds `source` (absent = CPU samples, `off-cpu` = blocked time) and `state` (scheduler state).
 */
export const URL_STATE_VERSION = 2;

export const FLAME_SOURCES = ['cpu', 'off-cpu'] as const;
export type FlameSource = (typeof FLAME_SOURCES)[number];

export interface FlameViewState {
  incident: number | null;
  captures: number[];
  source: FlameSource;
  /** Off-CPU only: S, D, R, … (null = all states). */
  state: string | null;
  event: string | null;
  pid: number | null;
  tid: number | null;
  comm: string | null;
  /** Seconds from the start of the selected captures. */
  start: number | null;
  end: number | null;
  search: string;
  /** Frame names from below the root ("all") down to the zoomed frame; [] = not zoomed. */
  zoom: string[];
}

export const EMPTY_VIEW: FlameViewState = {
  incident: null,
  captures: [],
  source: 'cpu',
  state: null,
  event: null,
  pid: null,
  tid: null,
  comm: null,
  start: null,
  end: null,
  search: '',
  zoom: [],
};

export interface DecodedView {
  state: FlameViewState;
  /** Problems worth telling the user about (a link from a newer version, a bad number). */
  warnings: string[];
}

/** Upgrade a version-N parameter set to N+1, in place. Keyed by the version being upgraded from. */
const UPGRADERS: Record<number, (p: URLSearchParams) => void> = {
  // 0 = links written by hand without `v`; the first version had the same names.
  0: () => undefined,
  // Version 1 only had CPU-sample flame graphs, which is what an absent `source` means.
  1: () => undefined,
};

export function encodeFlameState(s: FlameViewState): URLSearchParams {
  const p = new URLSearchParams();
  p.set('v', String(URL_STATE_VERSION));
  if (s.incident !== null) p.set('incident', String(s.incident));
  if (s.captures.length > 0) p.set('captures', s.captures.join(','));
  if (s.source !== 'cpu') p.set('source', s.source);
  if (s.source !== 'cpu' && s.state) p.set('state', s.state);
  if (s.event) p.set('event', s.event);
  if (s.pid !== null) p.set('pid', String(s.pid));
  if (s.tid !== null) p.set('tid', String(s.tid));
  if (s.comm) p.set('comm', s.comm);
  if (s.start !== null) p.set('start', String(s.start));
  if (s.end !== null) p.set('end', String(s.end));
  if (s.search) p.set('q', s.search);
  for (const name of s.zoom) p.append('zoom', name);
  return p;
}

export function decodeFlameState(input: URLSearchParams | string): DecodedView {
  const p = new URLSearchParams(input);
  const warnings: string[] = [];
  const rawVersion = p.get('v');
  let version = rawVersion === null ? 0 : Number(rawVersion);
  if (!Number.isInteger(version) || version < 0) {
    warnings.push(`Unknown link version "${rawVersion ?? ''}"; reading it as version ${URL_STATE_VERSION}.`);
    version = URL_STATE_VERSION;
  }
  if (version > URL_STATE_VERSION) {
    warnings.push(
      `This link was made by a newer Stallscope (view version ${version}); parts of the view may not be restored.`,
    );
  }
  for (let v = version; v < URL_STATE_VERSION; v += 1) UPGRADERS[v]?.(p);

  const int = (name: string): number | null => {
    const raw = p.get(name);
    if (raw === null || raw === '') return null;
    const n = Number(raw);
    if (!Number.isInteger(n)) {
      warnings.push(`Ignored ${name}="${raw}": not a whole number.`);
      return null;
    }
    return n;
  };
  const seconds = (name: string): number | null => {
    const raw = p.get(name);
    if (raw === null || raw === '') return null;
    const n = Number(raw);
    if (!Number.isFinite(n)) {
      warnings.push(`Ignored ${name}="${raw}": not a number of seconds.`);
      return null;
    }
    return n;
  };
  const captures: number[] = [];
  for (const part of (p.get('captures') ?? '').split(',')) {
    if (part.trim() === '') continue;
    const n = Number(part);
    if (Number.isInteger(n) && n > 0) {
      if (!captures.includes(n)) captures.push(n);
    } else warnings.push(`Ignored capture id "${part}".`);
  }
  const rawSource = p.get('source');
  let source: FlameSource = 'cpu';
  if (rawSource === 'off-cpu') source = 'off-cpu';
  else if (rawSource !== null && rawSource !== '' && rawSource !== 'cpu') warnings.push(`Unknown source "${rawSource}"; showing CPU samples.`);
  return {
    state: {
      incident: int('incident'),
      captures,
      source,
      state: source === 'off-cpu' ? p.get('state') || null : null,
      event: p.get('event') || null,
      pid: int('pid'),
      tid: int('tid'),
      comm: p.get('comm') || null,
      start: seconds('start'),
      end: seconds('end'),
      search: p.get('q') ?? '',
      zoom: p.getAll('zoom'),
    },
    warnings,
  };
}

/** The path of the flame page for a state, e.g. for links from the captures table. */
export function flameHref(s: Partial<FlameViewState>): string {
  return `/flame?${encodeFlameState({ ...EMPTY_VIEW, ...s }).toString()}`;
}

/** `patch` applied to the view in `current` (a query string), re-encoded. */
export function patchFlameState(current: URLSearchParams | string, patch: Partial<FlameViewState>): URLSearchParams {
  return encodeFlameState({ ...decodeFlameState(current).state, ...patch });
}
