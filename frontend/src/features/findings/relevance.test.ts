import { describe, expect, it } from 'vitest';
import { base } from '../captures/captureFixture';
import { finding } from './findingFixture';
import { hostsOfCaptures, relevanceText, relevantFindings, sameThread, viewScope, type ShownThread } from './relevance';

const shown = (tid: number, host: string | null = 'db-1', pid: number | null = 10, comm = 'query-1'): ShownThread => ({ host, pid, tid, comm });

const onDb1 = finding({ id: 'mmap', hosts: ['db-1'], threads: [{ host: 'db-1', pid: 10, tid: 11, comm: 'query-1' }] });
const onDb2 = finding({ id: 'io', severity: 'warning', hosts: ['db-2'], threads: [{ host: 'db-2', pid: 20, tid: 21, comm: 'writer' }] });
const dismissed = finding({ id: 'gone', hosts: ['db-1'], verdict: { verdict: 'dismissed', note: '', at: 'x' } });

describe('relevantFindings', () => {
  it('keep the findings that name a host on screen, most severe first, and say which hosts', () => {
    const r = relevantFindings([onDb2, onDb1, dismissed], { hosts: ['db-2', 'db-1', 'db-3'], threads: [] });
    expect(r.findings.map((f) => f.id)).toEqual(['mmap', 'io']);
    expect(r.hosts).toEqual(['db-2', 'db-1']);
    expect(relevanceText(r)).toBe('2 findings concern these hosts: db-2, db-1');
  });

  it('keep a finding that names a thread shown even when its host is not selected', () => {
    const r = relevantFindings([onDb1, onDb2], { hosts: ['db-9'], threads: [shown(11)] });
    expect(r.findings.map((f) => f.id)).toEqual(['mmap']);
    expect(relevanceText(r)).toBe('1 finding concerns this thread: query-1 (11)');
  });

  it('find nothing when neither the hosts nor the threads match', () => {
    expect(relevantFindings([onDb1, onDb2], { hosts: ['db-9'], threads: [shown(12)] }).findings).toEqual([]);
  });
});

describe('sameThread', () => {
  const named = { host: 'db-1', pid: 10, tid: 11, comm: 'query-1' };
  it('match on the tid, and on the host and pid where both sides know them', () => {
    expect(sameThread(named, shown(11))).toBe(true);
    expect(sameThread(named, shown(11, null, null))).toBe(true);
    expect(sameThread(named, shown(11, 'db-2'))).toBe(false);
    expect(sameThread(named, shown(11, 'db-1', 99))).toBe(false);
    expect(sameThread({ ...named, tid: null }, shown(11))).toBe(false);
  });
});

describe('viewScope', () => {
  it('use the selected hosts, or those of the threads shown when every host is selected', () => {
    const threads = [shown(1, 'db-2'), shown(2, null), shown(3, 'db-1'), shown(4, 'db-2')];
    expect(viewScope(['db-1'], threads).hosts).toEqual(['db-1']);
    expect(viewScope([], threads).hosts).toEqual(['db-2', 'db-1']);
  });
});

describe('hostsOfCaptures', () => {
  it('name the hosts of the captures shown, once each', () => {
    const captures = [
      { ...base, id: 1, host: 'bad' },
      { ...base, id: 2, host: 'fixed' },
      { ...base, id: 3, host: 'bad' },
      { ...base, id: 4, host: null },
      { ...base, id: 5, host: 'other' },
    ];
    expect(hostsOfCaptures(captures, [3, 1, 2, 4])).toEqual(['bad', 'fixed']);
  });
});
