import { describe, expect, it } from 'vitest';
import { DecodeError } from '../../api/decode';
import { decodeFindingsReport, decodeVerdict } from './api';
import { rawFinding } from './findingFixture';

const report = {
  state: 'ready',
  computed_at: '2026-11-25T21:00:00Z',
  duration_ms: 12.5,
  hosts: ['db-1'],
  baseline_hosts: ['db-2'],
  captures_pending: 0,
  notes: ['3 detectors ran.'],
  findings: [rawFinding],
};

describe('findings decoders', () => {
  it('decode the contract’s payload, evidence links and all', () => {
    const r = decodeFindingsReport(report);
    expect(r.state).toBe('ready');
    expect(r.baseline_hosts).toEqual(['db-2']);
    const [f] = r.findings;
    expect(f?.severity).toBe('critical');
    expect(f?.time_range_ns).toEqual([1764100000000000000, 1764100005000000000]);
    expect(f?.evidence[0]?.view).toBe('/flame?hosts=db-1&incident=1&q=rwsem_down&source=off-cpu');
    expect(f?.evidence[1]?.baseline).toBeNull();
    expect(f?.threads[0]).toEqual({ host: 'db-1', pid: 10, tid: 11, comm: 'query-1' });
    expect(f?.verdict).toBeNull();
  });

  it('accept a computing answer with nothing in it yet', () => {
    const r = decodeFindingsReport({ state: 'computing', computed_at: null, duration_ms: null, hosts: [], baseline_hosts: [], captures_pending: 2, notes: [], findings: [] });
    expect(r.captures_pending).toBe(2);
    expect(r.computed_at).toBeNull();
  });

  it('keep unknown pids and tids of threads as null', () => {
    const raw = { ...rawFinding, threads: [{ host: 'db-1', pid: null, tid: null, comm: 'kworker' }] };
    expect(decodeFindingsReport({ ...report, findings: [raw] }).findings[0]?.threads[0]?.tid).toBeNull();
  });

  it('reject an unknown severity, state or verdict, naming where', () => {
    expect(() => decodeFindingsReport({ ...report, findings: [{ ...rawFinding, severity: 'sev1' }] })).toThrow(/findings\.findings\[0\]\.severity/);
    expect(() => decodeFindingsReport({ ...report, state: 'done' })).toThrow(DecodeError);
    expect(() => decodeFindingsReport({ ...report, findings: [{ ...rawFinding, verdict: { verdict: 'maybe', note: '', at: 'x' } }] })).toThrow(DecodeError);
    expect(() => decodeFindingsReport({ ...report, findings: [{ ...rawFinding, confidence: '85%' }] })).toThrow(DecodeError);
  });

  it('read a stored verdict, and a cleared one as none', () => {
    expect(decodeVerdict({ verdict: 'confirmed', note: 'seen in perf trace', at: '2026-11-25T21:01:00Z' })).toEqual({
      verdict: 'confirmed',
      note: 'seen in perf trace',
      at: '2026-11-25T21:01:00Z',
    });
    expect(decodeVerdict({ verdict: null, note: '', at: null })).toBeNull();
    expect(decodeVerdict(null)).toBeNull();
  });
});
