/**
 * The diff view in the URL, so a link reproduces it. Each side is a shared selection (see
 * shared/selection.ts) under a prefix: `a.captures`, `a.from`, … `b.within`, read and written by the
 * same functions as the unprefixed keys. Other views link here with those keys (the heatmap sends
 * `a.` for the cells left out and `b.` for the cells chosen), so they are kept exactly.
 *
 * B is the side being investigated: without any `b.` key it is the shared selection, which is what a
 * tab switch carries; B is also written back to the shared keys, so leaving through a tab keeps it.
 * A is the baseline and may be unset (no `a.` key at all): the page then asks for one.
 */
import { readSelection, writeSelection, type Selection } from '../../shared/selection';
import type { Normalize } from './api';

/** 1: a./b. sides, source, state, event, normalize, mode, q, zoom. */
export const DIFF_URL_VERSION = 1;

/** b: B's graph coloured by change; a: A's graph coloured by change (frames that vanished show); side: both. */
export const DIFF_MODES = ['b', 'a', 'side'] as const;
export type DiffMode = (typeof DIFF_MODES)[number];

export type DiffSource = 'cpu' | 'off-cpu';

/** A side's selection; the incident is shared by both. */
export type SideSelection = Omit<Selection, 'incident'>;

export const EMPTY_SIDE: SideSelection = {
  captures: [],
  hosts: [],
  fromUs: null,
  toUs: null,
  pid: null,
  tid: null,
  comm: null,
  within: null,
};

export interface DiffViewState {
  incident: number | null;
  /** The baseline; null until one is chosen. */
  a: SideSelection | null;
  b: SideSelection;
  source: DiffSource;
  /** Off-CPU only: one scheduler state (null = all). */
  state: string | null;
  /** CPU only: the event compared (null = the server's default, the most sampled). */
  event: string | null;
  normalize: Normalize;
  mode: DiffMode;
  search: string;
  /** Frame names from below the root down to the zoomed frame. */
  zoom: string[];
}

export const EMPTY_DIFF: DiffViewState = {
  incident: null,
  a: null,
  b: EMPTY_SIDE,
  source: 'cpu',
  state: null,
  event: null,
  normalize: 'total',
  mode: 'b',
  search: '',
  zoom: [],
};

export interface DecodedDiff {
  state: DiffViewState;
  warnings: string[];
}

/** The keys under `prefix.`, with the prefix taken off. */
function prefixed(p: URLSearchParams, prefix: string): URLSearchParams | null {
  const out = new URLSearchParams();
  for (const [key, value] of p) if (key.startsWith(`${prefix}.`)) out.append(key.slice(prefix.length + 1), value);
  return [...out.keys()].length > 0 ? out : null;
}

function side(p: URLSearchParams, label: string, warnings: string[]): SideSelection {
  const { selection, warnings: found } = readSelection(p);
  for (const w of found) warnings.push(`${label}: ${w}`);
  return {
    captures: selection.captures,
    hosts: selection.hosts,
    fromUs: selection.fromUs,
    toUs: selection.toUs,
    pid: selection.pid,
    tid: selection.tid,
    comm: selection.comm,
    within: selection.within,
  };
}

export function decodeDiffState(input: URLSearchParams | string): DecodedDiff {
  const p = new URLSearchParams(input);
  const warnings: string[] = [];
  const rawVersion = p.get('v');
  const version = rawVersion === null ? DIFF_URL_VERSION : Number(rawVersion);
  if (Number.isInteger(version) && version > DIFF_URL_VERSION) {
    warnings.push(`This link was made by a newer Stallscope (diff view version ${version}); parts of the view may not be restored.`);
  }
  const shared = readSelection(p);
  const aKeys = prefixed(p, 'a');
  const bKeys = prefixed(p, 'b');
  const b = bKeys ? side(bKeys, 'B', warnings) : side(p, 'Selection', warnings);
  const rawSource = p.get('source');
  const source: DiffSource = rawSource === 'off-cpu' ? 'off-cpu' : 'cpu';
  if (rawSource && rawSource !== 'off-cpu' && rawSource !== 'cpu' && rawSource !== 'samples') {
    warnings.push(`Unknown source "${rawSource}"; comparing CPU samples.`);
  }
  const rawMode = p.get('mode');
  const mode = DIFF_MODES.find((m) => m === rawMode) ?? 'b';
  if (rawMode && rawMode !== mode) warnings.push(`Unknown mode "${rawMode}"; showing B coloured by change.`);
  return {
    state: {
      incident: shared.selection.incident,
      a: aKeys ? side(aKeys, 'A', warnings) : null,
      b,
      source,
      state: source === 'off-cpu' ? p.get('state') || null : null,
      event: source === 'cpu' ? p.get('event') || null : null,
      normalize: p.get('normalize') === 'none' ? 'none' : 'total',
      mode,
      search: p.get('q') ?? '',
      zoom: p.getAll('zoom'),
    },
    warnings,
  };
}

function writePrefixed(p: URLSearchParams, prefix: string, s: SideSelection): void {
  const keys = writeSelection(new URLSearchParams(), { ...s, incident: null });
  for (const [key, value] of keys) p.append(`${prefix}.${key}`, value);
}

/** An unset A with every field empty still needs one key to say "chosen": an empty capture list. */
const isEmptySide = (s: SideSelection): boolean => writeSelection(new URLSearchParams(), { ...s, incident: null }).toString() === '';

export function encodeDiffState(s: DiffViewState): URLSearchParams {
  const p = new URLSearchParams();
  p.set('v', String(DIFF_URL_VERSION));
  writeSelection(p, { ...s.b, incident: s.incident });
  if (s.a) {
    if (isEmptySide(s.a)) p.set('a.captures', '');
    else writePrefixed(p, 'a', s.a);
  }
  writePrefixed(p, 'b', s.b);
  if (s.source === 'off-cpu') {
    p.set('source', 'off-cpu');
    if (s.state) p.set('state', s.state);
  } else if (s.event) p.set('event', s.event);
  if (s.normalize === 'none') p.set('normalize', 'none');
  if (s.mode !== 'b') p.set('mode', s.mode);
  if (s.search) p.set('q', s.search);
  for (const name of s.zoom) p.append('zoom', name);
  return p;
}

/** Apply `patch` to the view in `current` (a query string): the URL as it is now, not as last rendered. */
export function patchDiffState(current: string, patch: Partial<DiffViewState>): URLSearchParams {
  return encodeDiffState({ ...decodeDiffState(current).state, ...patch });
}
