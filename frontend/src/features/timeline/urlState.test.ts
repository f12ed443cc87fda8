import { describe, expect, it } from 'vitest';
import { readSelection } from '../../shared/selection';
import { decodeTimelineView, patchTimelineView } from './urlState';

describe('timeline URL state', () => {
  it('reads absent tracks as the defaults and an empty list as none', () => {
    expect(decodeTimelineView('incident=1').view).toEqual({ tracks: null, split: 'process' });
    expect(decodeTimelineView('tracks=').view.tracks).toEqual([]);
    expect(decodeTimelineView('tracks=cpu%3Adb1%3Acpu-clock,offcpu%3Adb1,offcpu%3Adb1').view.tracks).toEqual([
      'cpu:db1:cpu-clock',
      'offcpu:db1',
    ]);
  });

  it('keeps ids whose parts contain escaped commas intact', () => {
    const p = patchTimelineView('incident=3', { tracks: ['cpu:a%2Cb:cpu-clock', 'm:h:x'] });
    expect(decodeTimelineView(p).view.tracks).toEqual(['cpu:a%2Cb:cpu-clock', 'm:h:x']);
  });

  it('writes its own keys and leaves the shared selection alone', () => {
    const before = 'incident=3&captures=4,5&from=2026-11-21T08:00:00.000000Z&to=2026-11-21T08:00:05.000000Z&pid=10&q=keep';
    const p = patchTimelineView(before, { tracks: ['offcpu:db1'], split: 'thread' });
    expect(p.get('tlv')).toBe('1');
    expect(p.get('tracks')).toBe('offcpu:db1');
    expect(p.get('split')).toBe('thread');
    expect(p.get('q')).toBe('keep');
    expect(readSelection(p).selection).toEqual(readSelection(before).selection);
    expect(patchTimelineView(p, { tracks: null, split: 'process' }).has('tracks')).toBe(false);
  });

  it('warns about links from a newer version and unknown values', () => {
    expect(decodeTimelineView('tlv=9').warnings[0]).toMatch(/newer Stallscope/);
    const odd = decodeTimelineView('split=cores');
    expect(odd.view.split).toBe('process');
    expect(odd.warnings[0]).toMatch(/Unknown split/);
  });
});
