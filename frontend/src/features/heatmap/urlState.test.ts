import { describe, expect, it } from 'vitest';
import { DEFAULT_VIEW, patchHeatmapView, readHeatmapView, validRows } from './urlState';

describe('heatmap URL keys', () => {
  it('reads its keys and defaults the rest', () => {
    expect(readHeatmapView('').view).toEqual(DEFAULT_VIEW);
    const { view, warnings } = readHeatmapView('stream=syscall&name=futex&rows=20&value=duration');
    expect(view).toEqual({ stream: 'syscall', name: 'futex', state: null, rows: 20, value: 'duration' });
    expect(warnings).toEqual([]);
  });

  it('warns about values it cannot use', () => {
    const { view, warnings } = readHeatmapView('stream=bogus&rows=30&value=sum');
    expect(view).toEqual(DEFAULT_VIEW);
    expect(warnings).toHaveLength(3);
    expect(warnings[1]).toContain('whole microseconds');
  });

  it('patches only its own keys and leaves the shared selection alone', () => {
    const p = patchHeatmapView('incident=3&from=2025-11-21T08:01:42.000000Z&within=0-20000&rows=20', {
      stream: 'off-cpu',
      state: 'D',
      rows: 50,
    });
    expect(p.get('incident')).toBe('3');
    expect(p.get('within')).toBe('0-20000');
    expect(p.get('from')).toBe('2025-11-21T08:01:42.000000Z');
    expect([p.get('stream'), p.get('state'), p.has('rows')]).toEqual(['off-cpu', 'D', false]);
    expect(patchHeatmapView(p, { stream: 'samples' }).has('state')).toBe(false);
  });

  it('accepts only rows that split a second into whole microseconds', () => {
    expect([10, 20, 25, 50, 100, 1000].every(validRows)).toBe(true);
    expect([0, 30, 7, 2000, 1.5].some(validRows)).toBe(false);
  });
});
