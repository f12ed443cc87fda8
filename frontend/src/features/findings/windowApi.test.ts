import { describe, expect, it } from 'vitest';
import type { Schemas } from '../../api/contract';
import { epochUsFromIso } from '../../shared/selection';
import { rawFinding } from './findingFixture';
import { windowFindingsOf, windowFindingsUrl } from './windowApi';

const answer: Schemas['WindowFindingsOut'] = {
  window: { start: '2026-11-25T08:03:10.200000Z', end: '2026-11-25T08:03:12Z' },
  baseline: { side: 'after', start: '2026-11-25T08:03:12Z', end: '2026-11-25T08:05:00.000001Z' },
  hosts: ['db-1'],
  capture_ids: [3, 4],
  duration_ms: 412.0,
  notes: ['Nothing comes before the window: compared with the time after it.'],
  findings: [rawFinding],
};

describe('window findings', () => {
  it('have their spans in epoch µs too, keeping the server’s text', () => {
    const r = windowFindingsOf(answer);
    expect(r.window.start).toBe('2026-11-25T08:03:10.200000Z');
    expect(r.window.startUs).toBe(epochUsFromIso('2026-11-25T08:03:10.2Z'));
    expect(r.window.endUs - r.window.startUs).toBe(1_800_000);
    expect(r.baseline?.side).toBe('after');
    expect(r.baseline?.endUs).toBe((epochUsFromIso('2026-11-25T08:05:00Z') ?? 0) + 1);
    expect(r.capture_ids).toEqual([3, 4]);
    expect(r.notes).toHaveLength(1);
  });

  it('accepts no baseline (the window covers all the captures’ time) and no findings', () => {
    const r = windowFindingsOf({ ...answer, baseline: null, findings: [] });
    expect(r.baseline).toBeNull();
    expect(r.findings).toEqual([]);
  });

  it('reads capture-clock spans, stored as 1970-based instants', () => {
    const r = windowFindingsOf({ ...answer, window: { start: '1970-01-01T03:37:41.862016Z', end: '1970-01-01T03:37:43.5Z' } });
    expect(r.window.startUs).toBe(13_061_862_016);
  });

  it('refuses a time it cannot read rather than placing it anywhere', () => {
    expect(() => windowFindingsOf({ ...answer, window: { start: 'yesterday', end: answer.window.end } })).toThrow(/yesterday/);
  });
});

describe('window findings URL', () => {
  const fromUs = epochUsFromIso('2026-11-25T08:03:10.2Z') ?? 0;
  it('sends the range as ISO with µs, the hosts and the side', () => {
    const url = windowFindingsUrl({ incident: 7, fromUs, toUs: fromUs + 1_800_001, hosts: ['db-1', 'db-2'], side: 'before' });
    const [path, query] = url.split('?');
    expect(path).toBe('/api/incidents/7/findings/window');
    const p = new URLSearchParams(query);
    expect(p.get('start')).toBe('2026-11-25T08:03:10.200000Z');
    expect(p.get('end')).toBe('2026-11-25T08:03:12.000001Z');
    expect(p.get('hosts')).toBe('db-1,db-2');
    expect(p.get('baseline')).toBe('before');
  });

  it('leaves the hosts out when every host is meant, and sends capture-clock times as the server stores them', () => {
    const p = new URLSearchParams(windowFindingsUrl({ incident: 7, fromUs: 13_061_862_016, toUs: 13_063_500_000, hosts: [], side: 'after' }).split('?')[1]);
    expect(p.has('hosts')).toBe(false);
    expect(p.get('start')).toBe('1970-01-01T03:37:41.862016Z');
    expect(p.get('baseline')).toBe('after');
  });
});
