/**
 * The timeline's own URL keys, beside the shared selection (shared/selection.ts), which it never
 * redefines: the time range it shows is the selection's `from`/`to`, so a brush here moves every view.
 *
 * `tlv` (1): version of these keys. `tracks`: comma-separated track ids (ids escape their own commas);
 * absent = the default tracks, present but empty = none. `split`: CPU stacked by `thread` (default: process).
 */

export const TIMELINE_URL_VERSION = 1;
export const TIMELINE_KEYS = ['tlv', 'tracks', 'split'] as const;

export type CpuSplit = 'process' | 'thread';

export interface TimelineViewState {
  /** null = the defaults for whatever the incident has. */
  tracks: string[] | null;
  split: CpuSplit;
}

export interface DecodedTimelineView {
  view: TimelineViewState;
  warnings: string[];
}

/** Upgrade the keys of version N to N+1, in place, keyed by N. */
const UPGRADERS: Record<number, (p: URLSearchParams) => void> = {
  // 0: links written by hand, without `tlv`; version 1 reads the same keys.
  0: () => undefined,
};

export function decodeTimelineView(input: URLSearchParams | string): DecodedTimelineView {
  const p = new URLSearchParams(input);
  const warnings: string[] = [];
  const raw = p.get('tlv');
  let version = raw === null ? 0 : Number(raw);
  if (!Number.isInteger(version) || version < 0) {
    warnings.push(`Unknown timeline link version "${raw ?? ''}"; reading it as version ${TIMELINE_URL_VERSION}.`);
    version = TIMELINE_URL_VERSION;
  }
  if (version > TIMELINE_URL_VERSION) {
    warnings.push(`This link was made by a newer Stallscope (timeline version ${version}); some tracks may not be restored.`);
  }
  for (let v = version; v < TIMELINE_URL_VERSION; v += 1) UPGRADERS[v]?.(p);

  const rawTracks = p.get('tracks');
  const tracks =
    rawTracks === null
      ? null
      : rawTracks
          .split(',')
          .map((t) => t.trim())
          .filter((t, i, all) => t !== '' && all.indexOf(t) === i);
  const rawSplit = p.get('split');
  let split: CpuSplit = 'process';
  if (rawSplit === 'thread') split = 'thread';
  else if (rawSplit !== null && rawSplit !== '' && rawSplit !== 'process') warnings.push(`Unknown split "${rawSplit}"; stacking CPU by process.`);
  return { view: { tracks, split }, warnings };
}

/** `patch` applied to the timeline keys of `current`; every other key (the selection) is kept. */
export function patchTimelineView(current: URLSearchParams | string, patch: Partial<TimelineViewState>): URLSearchParams {
  const p = new URLSearchParams(current);
  const view = { ...decodeTimelineView(p).view, ...patch };
  for (const key of TIMELINE_KEYS) p.delete(key);
  p.set('tlv', String(TIMELINE_URL_VERSION));
  if (view.tracks !== null) p.set('tracks', view.tracks.join(','));
  if (view.split !== 'process') p.set('split', view.split);
  return p;
}
