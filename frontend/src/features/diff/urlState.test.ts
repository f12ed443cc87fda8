import { describe, expect, it } from 'vitest';
import { epochUsFromIso } from '../../shared/selection';
import { decodeDiffState, encodeDiffState, EMPTY_DIFF, EMPTY_SIDE, patchDiffState, type DiffViewState } from './urlState';

const FULL: DiffViewState = {
  incident: 7,
  a: { ...EMPTY_SIDE, captures: [1, 2], hosts: ['db-1'], fromUs: 1_000_000, toUs: 3_500_001, comm: 'postgres', within: { startUs: 0, endUs: 20000, outside: true } },
  b: { ...EMPTY_SIDE, captures: [3], pid: 10, tid: 11, within: { startUs: 0, endUs: 20000, outside: false } },
  source: 'off-cpu',
  state: 'D',
  event: null,
  normalize: 'none',
  mode: 'side',
  search: 'io_schedule',
  zoom: ['postgres', 'main', 'a;b "c"'],
};

describe('diff URL state', () => {
  it('round-trips every field', () => {
    const encoded = encodeDiffState(FULL);
    expect(decodeDiffState(encoded)).toEqual({ state: FULL, warnings: [] });
    expect(decodeDiffState(encoded.toString()).state).toEqual(FULL);
  });

  it('writes each side under its prefix with the shared selection formats, and B to the shared keys', () => {
    const p = encodeDiffState(FULL);
    expect(p.get('a.captures')).toBe('1,2');
    expect(p.get('a.hosts')).toBe('db-1');
    // Times this early are on a capture's own clock: written as seconds, never as a 1970 date.
    expect(p.get('a.from')).toBe('1.000000s');
    expect(p.get('a.to')).toBe('3.500001s');
    expect(p.get('a.comm')).toBe('postgres');
    expect(p.get('a.within')).toBe('!0-20000');
    expect(p.get('b.captures')).toBe('3');
    expect(p.get('b.pid')).toBe('10');
    expect(p.get('b.tid')).toBe('11');
    expect(p.get('b.within')).toBe('0-20000');
    expect(p.get('captures')).toBe('3');
    expect(p.get('within')).toBe('0-20000');
    expect(p.get('incident')).toBe('7');
    expect(p.getAll('zoom')).toEqual(FULL.zoom);
    expect([p.get('source'), p.get('state'), p.get('normalize'), p.get('mode'), p.get('q')]).toEqual(['off-cpu', 'D', 'none', 'side', 'io_schedule']);
  });

  it('reads the heatmap link: cells left out as A, cells chosen as B', () => {
    const link =
      'incident=4&a.from=2026-11-21T08:00:00Z&a.to=2026-11-21T08:01:00Z&a.within=!0-20000' +
      '&b.from=2026-11-21T08:00:00Z&b.to=2026-11-21T08:01:00Z&b.within=0-20000';
    const { state, warnings } = decodeDiffState(link);
    expect(warnings).toEqual([]);
    expect(state.incident).toBe(4);
    expect(state.a?.within).toEqual({ startUs: 0, endUs: 20000, outside: true });
    expect(state.a?.fromUs).toBe(epochUsFromIso('2026-11-21T08:00:00Z'));
    expect(state.b.within).toEqual({ startUs: 0, endUs: 20000, outside: false });
    expect(state.b.captures).toEqual([]);
  });

  it('takes B from the shared selection when there is no b. key, and leaves A unset', () => {
    const { state } = decodeDiffState('incident=3&captures=5,6&from=2026-11-21T08:00:00Z&comm=web');
    expect(state.a).toBeNull();
    expect(state.b).toEqual({ ...EMPTY_SIDE, captures: [5, 6], fromUs: epochUsFromIso('2026-11-21T08:00:00Z'), comm: 'web' });
  });

  it('keeps a chosen A that selects everything', () => {
    const p = encodeDiffState({ ...EMPTY_DIFF, incident: 1, a: EMPTY_SIDE });
    expect(p.has('a.captures')).toBe(true);
    expect(decodeDiffState(p).state.a).toEqual(EMPTY_SIDE);
  });

  it('warns about what it cannot read, naming the side', () => {
    const { state, warnings } = decodeDiffState('incident=1&a.captures=1,x&b.from=yesterday&mode=weird&source=gpu&v=9');
    expect(state.a?.captures).toEqual([1]);
    expect(state.b.fromUs).toBeNull();
    expect(state.mode).toBe('b');
    expect(state.source).toBe('cpu');
    expect(warnings).toHaveLength(5);
    expect(warnings.some((w) => w.startsWith('A: Ignored capture id "x"'))).toBe(true);
    expect(warnings.some((w) => w.startsWith('B: Ignored from="yesterday"'))).toBe(true);
  });

  it('drops the event of an off-CPU view and the state of a CPU one', () => {
    expect(decodeDiffState('incident=1&source=off-cpu&event=cycles&state=S').state).toMatchObject({ event: null, state: 'S' });
    expect(decodeDiffState('incident=1&event=cycles&state=S').state).toMatchObject({ event: 'cycles', state: null });
  });

  it('patches the view as it is in the URL now', () => {
    const current = encodeDiffState(FULL).toString();
    const next = decodeDiffState(patchDiffState(current, { mode: 'a', zoom: [] })).state;
    expect(next).toEqual({ ...FULL, mode: 'a', zoom: [] });
    const swapped = decodeDiffState(patchDiffState(current, { a: FULL.b, b: FULL.a ?? EMPTY_SIDE })).state;
    expect([swapped.a, swapped.b]).toEqual([FULL.b, FULL.a]);
  });
});
