import { describe, expect, it } from 'vitest';
import { flameUrl, foldedUrl } from '../../api/endpoints';
import { foldedFileName, needsTimeStart, toFlameQuery } from './flameQuery';
import { EMPTY_VIEW } from './urlState';

describe('toFlameQuery', () => {
  const view = { ...EMPTY_VIEW, captures: [2, 1], event: 'cpu-clock', pid: 42, comm: 'java', legacyStart: 1.5, legacyEnd: 10 };

  it('sends absolute times with microseconds, and the within-second band', () => {
    const t0 = Date.UTC(2026, 0, 1) * 1000;
    const q = toFlameQuery({ ...EMPTY_VIEW, captures: [1], fromUs: t0 + 1, toUs: t0 + 2_000_000, within: { startUs: 0, endUs: 5, outside: true } }, null);
    expect(q).toEqual({ captures: [1], start: '2026-01-01T00:00:00.000001Z', end: '2026-01-01T00:00:02.000000Z', within: '!0-5' });
  });

  it('turns offsets of old links into absolute UTC times', () => {
    const q = toFlameQuery(view, '2026-01-01T00:00:00Z');
    expect(q).toEqual({
      captures: [1, 2],
      event: 'cpu-clock',
      pid: 42,
      comm: 'java',
      start: '2026-01-01T00:00:01.500Z',
      end: '2026-01-01T00:00:10.000Z',
    });
    expect(needsTimeStart(view)).toBe(true);
  });

  it('leaves the range out without a start time', () => {
    expect(toFlameQuery(view, null).start).toBeUndefined();
  });

  it('builds API URLs with focus as a JSON array', () => {
    const q = toFlameQuery({ ...EMPTY_VIEW, captures: [3], comm: 'a&b' }, null);
    const url = new URL(flameUrl({ ...q, focus: ['java', 'operator<<', 'a,b'] }), 'http://x');
    expect(url.pathname).toBe('/api/flame');
    expect(url.searchParams.get('captures')).toBe('3');
    expect(url.searchParams.get('comm')).toBe('a&b');
    expect(JSON.parse(url.searchParams.get('focus') ?? '')).toEqual(['java', 'operator<<', 'a,b']);
    expect(url.searchParams.get('max_nodes')).toBe('50000');
    expect(foldedUrl(q)).toBe('/api/flame/folded?captures=3&comm=a%26b');
  });

  it('names downloads safely', () => {
    expect(foldedFileName({ captures: [1, 2], comm: 'kworker/0:1', pid: 7 }, 'sched:sched_switch')).toBe(
      'captures-1-2_sched-sched_switch_kworker-0-1_pid7.folded.txt',
    );
  });
});
