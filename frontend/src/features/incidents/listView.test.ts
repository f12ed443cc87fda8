import { describe, expect, it } from 'vitest';
import type { Incident } from '../../api/types';
import { DEFAULT_LIST_VIEW, decodeListView, encodeListView, filterIncidents, nextSort, sortIncidents } from './listView';

const inc = (id: number, title: string, severity: Incident['severity'], started: string, captures: number): Incident => ({
  id,
  title,
  severity,
  started_at: started,
  summary: id === 2 ? 'p99 latency on checkout' : '',
  created_at: started,
  capture_count: captures,
  visibility: 'team',
  members: [],
  status: 'investigating',
  identified_at: null,
  mitigated_at: null,
  resolved_at: null,
  root_cause: '',
  remediation: '',
  updated_at: null,
  watch_host: null,
});

const list = [
  inc(1, 'DB stalls', 'sev2', '2026-01-01T10:00:00Z', 3),
  inc(2, 'api slow', 'sev1', '2026-01-03T10:00:00Z', 0),
  inc(3, 'Batch 10 late', 'sev4', '2026-01-02T10:00:00Z', 12),
  inc(4, 'Batch 9 late', 'sev4', '2026-01-02T10:00:00Z', 1),
];

describe('incident list', () => {
  it('sorts by each column', () => {
    expect(sortIncidents(list, 'started', 'desc').map((i) => i.id)).toEqual([2, 4, 3, 1]);
    expect(sortIncidents(list, 'severity', 'asc').map((i) => i.id)).toEqual([2, 1, 4, 3]);
    expect(sortIncidents(list, 'title', 'asc').map((i) => i.id)).toEqual([2, 4, 3, 1]);
    expect(sortIncidents(list, 'captures', 'desc').map((i) => i.id)).toEqual([3, 1, 4, 2]);
  });
  it('filters by every word', () => {
    expect(filterIncidents(list, 'batch LATE').map((i) => i.id)).toEqual([3, 4]);
    expect(filterIncidents(list, 'checkout').map((i) => i.id)).toEqual([2]);
    expect(filterIncidents(list, '#3').map((i) => i.id)).toEqual([3]);
    expect(filterIncidents(list, '  ')).toHaveLength(4);
  });
  it('round-trips view state through the URL and omits defaults', () => {
    expect(encodeListView(DEFAULT_LIST_VIEW).toString()).toBe('');
    const v = { q: 'db & co', sort: 'title' as const, dir: 'asc' as const };
    expect(decodeListView(new URLSearchParams(encodeListView(v).toString()))).toEqual(v);
    expect(decodeListView(new URLSearchParams('sort=bogus&dir=up'))).toEqual(DEFAULT_LIST_VIEW);
  });
  it('flips direction on the same column', () => {
    expect(nextSort(DEFAULT_LIST_VIEW, 'started')).toEqual({ sort: 'started', dir: 'asc' });
    expect(nextSort(DEFAULT_LIST_VIEW, 'title')).toEqual({ sort: 'title', dir: 'asc' });
  });
});
