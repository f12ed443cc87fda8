import { describe, expect, it } from 'vitest';
import type { ConfigDiff, KeyChange, SnapshotRef } from './diffApi';
import { cellText, defaultPair, groups, onlyReadSummary, parseSide, pickPair, sideId, snapshotLabel, startEndPairs, uploadHosts } from './configDiffView';

const ref = (capture_id: number, take: number, extra: Partial<SnapshotRef> = {}): SnapshotRef => ({
  capture_id,
  take,
  filename: `f${capture_id}.txt`,
  label: null,
  host: 'vm',
  taken_at_ns: null,
  source: 'text',
  ...extra,
});

const row = (status: KeyChange['status'], section: string, key: string, a: string | null, b: string | null): KeyChange => ({
  section,
  key,
  status,
  a,
  b,
  a_note: null,
  b_note: null,
  hint: null,
});

const diff = (rows: KeyChange[]): ConfigDiff => ({
  a: ref(1, 0),
  b: ref(2, 0),
  changed: rows.filter((r) => r.status === 'changed'),
  added: rows.filter((r) => r.status === 'added'),
  removed: rows.filter((r) => r.status === 'removed'),
  unchanged: rows.filter((r) => r.status === 'unchanged'),
  only_in_a: [],
  only_in_b: [],
  not_compared_a: {},
  not_compared_b: {},
});

describe('sides', () => {
  it('round-trips capture:take and defaults the take to the first', () => {
    expect(sideId(ref(12, 1))).toBe('12:1');
    expect(parseSide('12:1')).toEqual({ capture: 12, take: 1 });
    expect(parseSide('12')).toEqual({ capture: 12, take: 0 });
    expect(parseSide('x')).toBeNull();
    expect(parseSide(null)).toBeNull();
  });

  it('names the take only when the file has several', () => {
    const all = [ref(1, 0), ref(2, 0, { label: 'start' }), ref(2, 1, { label: 'end' })];
    const [one, , end] = all;
    expect(one && snapshotLabel(one, all)).toBe('#1 f1.txt · vm');
    expect(end && snapshotLabel(end, all)).toBe('#2 f2.txt · take 2 of 2 (end) · vm');
  });
  it('names the host the capture was uploaded under, with the snapshot’s own hostname when it differs', () => {
    const all = [ref(1, 0), ref(2, 0, { label: 'start' }), ref(2, 1, { label: 'end' })];
    const hosts = uploadHosts([
      { id: 1, host: 'bad' },
      { id: 2, host: 'vm' },
      { id: 3, host: null },
    ]);
    const [one, , end] = all;
    expect(one && snapshotLabel(one, all, hosts)).toBe('#1 f1.txt · host bad (vm)');
    expect(end && snapshotLabel(end, all, hosts)).toBe('#2 f2.txt · take 2 of 2 (end) · host vm');
    expect(snapshotLabel(ref(3, 0, { host: null }), [], hosts)).toBe('#3 f3.txt');
  });
});

describe('default pair', () => {
  it('compares two hosts first, else one file’s start with its end', () => {
    expect(defaultPair([ref(1, 0), ref(1, 1), ref(3, 0)])).toEqual(['1:0', '3:0']);
    expect(defaultPair([ref(5, 0), ref(5, 1), ref(5, 2)])).toEqual(['5:0', '5:2']);
    expect(defaultPair([ref(5, 0)])).toBeNull();
    expect(startEndPairs([ref(5, 2), ref(5, 0), ref(6, 0)]).map(([a, b]) => [a.take, b.take])).toEqual([[0, 2]]);
  });
});

describe('pickPair', () => {
  const all = [ref(1, 0), ref(2, 0), ref(2, 1)];
  it('takes the URL’s sides, fills a missing B with another snapshot, else the default pair', () => {
    expect(pickPair(all, '2:0', '2:1')).toEqual(['2:0', '2:1']);
    expect(pickPair(all, '2:0', null)).toEqual(['2:0', '1:0']);
    expect(pickPair(all, null, '1:0')).toEqual(['2:0', '1:0']);
    expect(pickPair(all, 'junk', null)).toEqual(['1:0', '2:0']);
    expect(pickPair([], null, null)).toEqual([null, null]);
  });
  it('writes a side named by its capture alone as the pickers do', () => {
    expect(pickPair(all, '1', '2')).toEqual(['1:0', '2:0']);
    expect(pickPair(all, ' 2:1', null)).toEqual(['2:1', '1:0']);
  });
});

describe('groups', () => {
  const d = diff([
    row('unchanged', 'vm', 'swappiness', '60', '60'),
    row('changed', 'transparent_hugepage', 'defrag', 'madvise', 'always'),
    row('removed', 'processes', 'appserver · environment · LD_BIND_NOW', '1', null),
    row('added', 'bpf', 'program · tracepoint fsync_lat', null, 'loaded'),
  ]);

  it('puts changed keys first, then added, removed and unchanged', () => {
    expect(groups(d).map((g) => [g.status, g.rows.map((r) => r.key)])).toEqual([
      ['changed', ['defrag']],
      ['added', ['program · tracepoint fsync_lat']],
      ['removed', ['appserver · environment · LD_BIND_NOW']],
      ['unchanged', ['swappiness']],
    ]);
  });

  it('filters on section, key and either value', () => {
    expect(groups(d, 'ld_bind').flatMap((g) => g.rows.map((r) => r.key))).toEqual(['appserver · environment · LD_BIND_NOW']);
    expect(groups(d, 'ALWAYS').flatMap((g) => g.rows.map((r) => r.key))).toEqual(['defrag']);
  });

  it('says why a cell is empty', () => {
    expect(cellText(null, null, 'added', 'a')).toBe('—');
    expect(cellText(null, 'Permission denied', 'changed', 'a')).toBe('unreadable: Permission denied');
    expect(cellText('1', null, 'removed', 'a')).toBe('1');
  });

  it('summarises what only one side read', () => {
    expect(onlyReadSummary([{ section: 'vm', count: 39, keys: [], whole_section: false }, { section: 'mounts', count: 18, keys: [], whole_section: true }])).toBe(
      'vm (39), mounts (whole section)',
    );
  });
});
