import { describe, expect, it } from 'vitest';
import { foldedFileName, toFlameQuery } from './flameQuery';
import { EMPTY_VIEW, URL_STATE_VERSION, decodeFlameState, encodeFlameState, flameHref, patchFlameState, type FlameViewState } from './urlState';

const full: FlameViewState = {
  incident: 3,
  captures: [1, 2, 17],
  source: 'cpu',
  state: null,
  event: 'sched:sched_switch',
  pid: 15285,
  tid: 15286,
  comm: 'java-worker #1',
  hosts: ['db-1'],
  fromUs: Date.UTC(2026, 10, 21, 8, 0, 1) * 1000 + 250,
  toUs: Date.UTC(2026, 10, 21, 8, 0, 19) * 1000 + 500_000,
  within: { startUs: 0, endUs: 20_000, outside: false },
  legacyStart: null,
  legacyEnd: null,
  search: 'operator<< & [unknown] ( 100% +',
  zoom: [
    'java',
    '<script>alert(1)</script>',
    'std::basic_ostream<char>& std::operator<< <std::char_traits<char> >(std::basic_ostream<char>&, char const*)',
    'Lcom/foo/Bar;.baz(Ljava/lang/String;)V',
    'a,b;c=d&e?f#g%20h+i',
    '',
    '函数 ✓',
  ],
};

/** What a browser does to a link: serialise, then parse it back from the address bar. */
const throughUrl = (s: FlameViewState): FlameViewState => {
  const url = new URL(`https://example.test/flame?${encodeFlameState(s).toString()}`);
  return decodeFlameState(url.search).state;
};

describe('flame URL state', () => {
  it('round-trips a full state with hostile frame names', () => {
    expect(throughUrl(full)).toEqual(full);
  });

  it('round-trips the empty state', () => {
    expect(throughUrl(EMPTY_VIEW)).toEqual(EMPTY_VIEW);
  });

  it('writes the version and omits defaults', () => {
    const p = encodeFlameState({ ...EMPTY_VIEW, captures: [4] });
    expect(p.toString()).toBe(`v=${URL_STATE_VERSION}&captures=4`);
  });

  it('keeps zoom order', () => {
    const s = { ...EMPTY_VIEW, zoom: ['b', 'a', 'b'] };
    expect(throughUrl(s).zoom).toEqual(['b', 'a', 'b']);
  });

  it('reads unversioned hand-written links', () => {
    const { state, warnings } = decodeFlameState('captures=5,6&q=main&zoom=func_ab');
    expect(state.captures).toEqual([5, 6]);
    expect(state.search).toBe('main');
    expect(state.zoom).toEqual(['func_ab']);
    expect(warnings).toEqual([]);
  });

  it('warns about links from a newer version but still reads them', () => {
    const { state, warnings } = decodeFlameState('v=9&captures=1');
    expect(state.captures).toEqual([1]);
    expect(warnings[0]).toMatch(/newer/);
  });

  it('ignores bad numbers with a warning', () => {
    const { state, warnings } = decodeFlameState('v=1&captures=1,x,1,-2&pid=abc&start=zz&end=2.5');
    expect(state.captures).toEqual([1]);
    expect(state.pid).toBeNull();
    expect(state.legacyStart).toBeNull();
    expect(state.legacyEnd).toBe(2.5);
    expect(warnings).toHaveLength(4);
  });

  it('keeps the offsets of version-2 links aside until the captures start is known', () => {
    const { state, warnings } = decodeFlameState('v=2&captures=1&start=1.5&end=3');
    expect(warnings).toEqual([]);
    expect([state.legacyStart, state.legacyEnd, state.fromUs, state.toUs]).toEqual([1.5, 3, null, null]);
    const again = decodeFlameState(encodeFlameState(state)).state;
    expect([again.legacyStart, again.legacyEnd]).toEqual([1.5, 3]);
  });

  it('shares the selection keys with every other view', () => {
    const p = encodeFlameState(full);
    expect(p.get('from')).toBe('2026-11-21T08:00:01.000250Z');
    expect(p.get('within')).toBe('0-20000');
    expect(p.get('hosts')).toBe('db-1');
    expect(p.has('start')).toBe(false);
  });

  it('builds hrefs for links into the page', () => {
    expect(flameHref({ incident: 2, captures: [7, 8] })).toBe(`/flame?v=${URL_STATE_VERSION}&incident=2&captures=7%2C8`);
  });

  it('patches the view in the URL as it is now', () => {
    // A zoom pushed since the page last rendered survives a late search commit.
    const now = encodeFlameState({ ...EMPTY_VIEW, captures: [1], search: 'rec_a', zoom: ['deeprec'] });
    const next = decodeFlameState(patchFlameState(now, { search: '' })).state;
    expect(next).toEqual({ ...EMPTY_VIEW, captures: [1], zoom: ['deeprec'] });
    expect(decodeFlameState(patchFlameState(`?${now.toString()}`, { zoom: [] })).state.search).toBe('rec_a');
  });

  it('round-trips the off-CPU source and state', () => {
    const off: FlameViewState = { ...EMPTY_VIEW, captures: [5], source: 'off-cpu', state: 'D', zoom: ['postgres'] };
    const p = encodeFlameState(off);
    expect(p.get('v')).toBe(String(URL_STATE_VERSION));
    expect(p.get('source')).toBe('off-cpu');
    expect(decodeFlameState(p)).toEqual({ state: off, warnings: [] });
  });

  it('round-trips the /proc stack source and its state, and sends them instead of an event', () => {
    const stacks: FlameViewState = { ...EMPTY_VIEW, captures: [6], source: 'proc-stack', state: 'D', event: 'cpu-clock' };
    const p = encodeFlameState(stacks);
    expect([p.get('source'), p.get('state')]).toEqual(['proc-stack', 'D']);
    expect(decodeFlameState(p)).toEqual({ state: stacks, warnings: [] });
    expect(toFlameQuery(stacks, null)).toEqual({ captures: [6], source: 'proc-stack', state: 'D' });
    expect(foldedFileName(toFlameQuery(stacks, null), 'proc-stack:R')).toBe('captures-6_proc-stack-D.folded.txt');
  });

  it('reads version-1 links as CPU flame graphs, and drops a state without the off-CPU source', () => {
    const { state, warnings } = decodeFlameState('v=1&captures=2&event=cpu-clock&state=D');
    expect(warnings).toEqual([]);
    expect(state.source).toBe('cpu');
    expect(state.state).toBeNull();
    expect(state.event).toBe('cpu-clock');
  });

  it('warns about an unknown source', () => {
    const { state, warnings } = decodeFlameState('v=2&captures=2&source=gpu');
    expect(state.source).toBe('cpu');
    expect(warnings[0]).toMatch(/gpu/);
  });
});
