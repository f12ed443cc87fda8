import { EMPTY_SELECTION, readSelection, writeSelection, type Selection } from '../../shared/selection';

/**
 * The whole flame-graph view lives in the URL so a copied link reproduces it. Versioned (`v`), with
 * upgraders from older versions, after firefox-devtools/profiler's url-handling.
 */

/**
 * 1: captures, event, pid/tid/comm, start/end, q, zoom.
 * 2: adds `source` (absent = CPU samples, `off-cpu` = blocked time) and `state` (scheduler state).
 * 3: the shared selection (shared/selection.ts): absolute `from`/`to` replace `start`/`end` (seconds
 *    from the captures' start), and `hosts` and `within` join it. `source` may also be `proc-stack`
 *    (kernel stacks sampled from /proc, counted in samples; `state` applies): a value older pages
 *    read as CPU samples, with a warning, so no new version is needed.
 */
export const URL_STATE_VERSION = 3;

export const FLAME_SOURCES = ['cpu', 'off-cpu', 'proc-stack'] as const;
export type FlameSource = (typeof FLAME_SOURCES)[number];

export interface FlameViewState extends Selection {
  source: FlameSource;
  /** Off-CPU and /proc stack sources: S, D, R, … (null = all states). */
  state: string | null;
  event: string | null;
  /**
   * Seconds from the start of the selected captures, from version 1–2 links: they can only be made
   * absolute once the captures' start is known, and are then rewritten as `from`/`to`.
   */
  legacyStart: number | null;
  legacyEnd: number | null;
  search: string;
  /** Frame names from below the root ("all") down to the zoomed frame; [] = not zoomed. */
  zoom: string[];
}

export const EMPTY_VIEW: FlameViewState = {
  ...EMPTY_SELECTION,
  source: 'cpu',
  state: null,
  event: null,
  legacyStart: null,
  legacyEnd: null,
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
  // Relative `start`/`end` need the captures' start time: kept aside as legacy offsets (decode).
  2: (p) => {
    for (const [from, to] of [
      ['start', 'legacy_start'],
      ['end', 'legacy_end'],
    ] as const) {
      const value = p.get(from);
      p.delete(from);
      if (value !== null) p.set(to, value);
    }
  },
};

/** Sources whose graphs are split by scheduler state rather than by event. */
export const hasStates = (source: FlameSource): boolean => source !== 'cpu';

export function encodeFlameState(s: FlameViewState): URLSearchParams {
  const p = new URLSearchParams();
  p.set('v', String(URL_STATE_VERSION));
  writeSelection(p, s);
  if (s.source !== 'cpu') p.set('source', s.source);
  if (s.source !== 'cpu' && s.state) p.set('state', s.state);
  if (s.event) p.set('event', s.event);
  if (s.legacyStart !== null) p.set('legacy_start', String(s.legacyStart));
  if (s.legacyEnd !== null) p.set('legacy_end', String(s.legacyEnd));
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

  const { selection, warnings: selectionWarnings } = readSelection(p);
  warnings.push(...selectionWarnings);
  const seconds = (name: string): number | null => {
    const raw = p.get(name);
    if (raw === null || raw === '') return null;
    const n = Number(raw);
    if (!Number.isFinite(n)) {
      warnings.push(`Ignored ${name.replace('legacy_', '')}="${raw}": not a number of seconds.`);
      return null;
    }
    return n;
  };
  const rawSource = p.get('source');
  let source: FlameSource = 'cpu';
  if (rawSource === 'off-cpu' || rawSource === 'proc-stack') source = rawSource;
  else if (rawSource !== null && rawSource !== '' && rawSource !== 'cpu') warnings.push(`Unknown source "${rawSource}"; showing CPU samples.`);
  return {
    state: {
      ...selection,
      source,
      state: hasStates(source) ? p.get('state') || null : null,
      event: p.get('event') || null,
      legacyStart: seconds('legacy_start'),
      legacyEnd: seconds('legacy_end'),
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
