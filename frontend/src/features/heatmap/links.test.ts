import { describe, expect, it } from 'vitest';
import { EMPTY_SELECTION, readSelection, type Selection } from '../../shared/selection';
import { diffHref, flameHref, type CellsLink } from './links';

const T0 = 1_763_712_100;
const selection: Selection = {
  ...EMPTY_SELECTION,
  incident: 7,
  fromUs: (T0 + 2) * 1e6,
  toUs: (T0 + 5) * 1e6,
  within: { startUs: 0, endUs: 20_000, outside: false },
  comm: 'db',
};
const link: CellsLink = { selection, captures: [3, 4], stream: 'samples', event: 'cpu-clock', state: null };

const query = (href: string) => new URLSearchParams(href.slice(href.indexOf('?') + 1));

describe('links from selected cells', () => {
  it('opens a flame graph of exactly those slices', () => {
    const href = flameHref(link);
    expect(href.startsWith('/flame?')).toBe(true);
    const p = query(href);
    expect(p.get('from')).toBe('2025-11-21T08:01:42.000000Z');
    expect(p.get('to')).toBe('2025-11-21T08:01:45.000000Z');
    expect(p.get('within')).toBe('0-20000');
    expect(p.get('event')).toBe('cpu-clock');
    expect(p.has('source')).toBe(false);
    const back = readSelection(p).selection;
    expect(back).toEqual({ ...selection, captures: [3, 4] });
  });

  it('opens off-CPU flame graphs for off-CPU cells', () => {
    const p = query(flameHref({ ...link, stream: 'off-cpu', event: null, state: 'D' }));
    expect([p.get('source'), p.get('state'), p.get('event')]).toEqual(['off-cpu', 'D', null]);
  });

  it('diffs the cells (B) against the rest of the same seconds (A)', () => {
    const href = diffHref(link);
    expect(href?.startsWith('/diff?')).toBe(true);
    const p = query(href ?? '');
    expect(p.get('incident')).toBe('7');
    expect(p.get('b.within')).toBe('0-20000');
    expect(p.get('a.within')).toBe('!0-20000');
    for (const side of ['a', 'b']) {
      expect(p.get(`${side}.captures`)).toBe('3,4');
      expect(p.get(`${side}.from`)).toBe('2025-11-21T08:01:42.000000Z');
      expect(p.get(`${side}.to`)).toBe('2025-11-21T08:01:45.000000Z');
    }
    expect(p.has('source')).toBe(false);
    expect(query(diffHref({ ...link, stream: 'off-cpu' }) ?? '').get('source')).toBe('off-cpu');
  });

  it('has no diff when the cells cover whole seconds', () => {
    expect(diffHref({ ...link, selection: { ...selection, within: null } })).toBeNull();
  });
});
