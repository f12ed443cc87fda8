import { describe, expect, it } from 'vitest';
import type { Capture } from '../../api/types';
import { base } from '../captures/captureFixture';
import { baselinePresets, byHost, describeSide, sideCaptureIds, sideQuery } from './sides';
import { EMPTY_SIDE } from './urlState';

const capture = (id: number, host: string | null, status: Capture['status'] = 'ready'): Capture => ({ ...base, id, host, status, filename: `c${id}.txt` });
const CAPTURES = [capture(1, 'db-1'), capture(2, 'db-2'), capture(3, 'db-2'), capture(4, 'db-1', 'failed')];

describe('side selections', () => {
  it('reads every parsed capture when none are listed, narrowed to hosts', () => {
    expect(sideCaptureIds(EMPTY_SIDE, CAPTURES)).toEqual([1, 2, 3]);
    expect(sideCaptureIds({ ...EMPTY_SIDE, hosts: ['db-2'] }, CAPTURES)).toEqual([2, 3]);
    expect(sideCaptureIds({ ...EMPTY_SIDE, captures: [3, 1, 3] }, CAPTURES)).toEqual([1, 3]);
    expect(sideCaptureIds({ ...EMPTY_SIDE, captures: [1, 3], hosts: ['db-2'] }, CAPTURES)).toEqual([3]);
    // Ids the page does not know yet are kept: the server says whether they exist.
    expect(sideCaptureIds({ ...EMPTY_SIDE, captures: [99] }, CAPTURES)).toEqual([99]);
  });

  it('turns a side into request fields', () => {
    const side = { ...EMPTY_SIDE, hosts: ['db-1'], fromUs: 5, comm: 'web' };
    expect(sideQuery(side, CAPTURES)).toEqual({ captures: [1], fromUs: 5, toUs: null, pid: null, tid: null, comm: 'web', within: null });
  });

  it('groups captures by host, no host last', () => {
    const groups = byHost([capture(5, null), ...CAPTURES]);
    expect(groups.map((g) => [g.host, g.captures.map((c) => c.id)])).toEqual([
      ['db-1', [1, 4]],
      ['db-2', [2, 3]],
      [null, [5]],
    ]);
  });

  it('describes a side in words', () => {
    const side = { ...EMPTY_SIDE, fromUs: 1_000_000, comm: 'web', within: { startUs: 0, endUs: 20000, outside: true } };
    expect(describeSide(side, [1, 2])).toBe(
      'captures #1, #2 · 1970-01-01T00:00:01.000000Z → end · comm web · outside 0-20000 µs of each second',
    );
    expect(describeSide(EMPTY_SIDE, [])).toBe('no captures · whole range');
  });

  it('offers baselines that differ from B', () => {
    const bHost = { ...EMPTY_SIDE, hosts: ['db-2'] };
    expect(baselinePresets(bHost, CAPTURES).map((p) => [p.id, p.a.captures])).toEqual([['other-hosts', [1]]]);
    const bSlice = { ...EMPTY_SIDE, captures: [2], fromUs: 10, within: { startUs: 0, endUs: 5, outside: false } };
    const presets = baselinePresets(bSlice, CAPTURES);
    expect(presets.map((p) => p.id)).toEqual(['whole-range', 'rest-of-second', 'other-hosts']);
    expect(presets[0]?.a).toEqual({ ...EMPTY_SIDE, captures: [2] });
    expect(presets[1]?.a.within).toEqual({ startUs: 0, endUs: 5, outside: true });
    expect(presets[1]?.a.fromUs).toBe(10);
    expect(baselinePresets({ ...EMPTY_SIDE, captures: [2] }, CAPTURES).map((p) => p.id)).toEqual(['other-hosts']);
    expect(baselinePresets({ ...EMPTY_SIDE, captures: [2] }, [capture(2, 'x'), capture(3, 'x')]).map((p) => p.label)).toEqual([
      'A = the other captures',
    ]);
  });
});
