import { describe, expect, it } from 'vitest';
import type { Capture } from '../../api/types';
import { base } from './captureFixture';
import { captureLinks, groupByHost, recordSummary, timeSpanText, warningPlace } from './captureView';

const cap = (patch: Partial<Capture>): Capture => ({ ...base, sample_count: 0, ...patch });

describe('record summary', () => {
  it('names samples, syscalls, off-CPU intervals with unclosed ones, metric points and snapshots', () => {
    expect(recordSummary(cap({ record_counts: { samples: 39856 } }))).toBe('39,856 samples');
    expect(recordSummary(cap({ record_counts: { events: 11005, 'events.syscall': 11005, stacks: 1 } }))).toBe('11,005 syscalls');
    expect(
      recordSummary(cap({ record_counts: { events: 107528, 'events.off-cpu': 53764, 'events.on-cpu': 53764, unclosed_events: 2478 } })),
    ).toBe('53,764 off-CPU intervals (2,478 unclosed)');
    expect(recordSummary(cap({ record_counts: { metric_points: 1204, metric_series: 38 } }))).toBe('1,204 points in 38 series');
    expect(recordSummary(cap({ format: 'stallscope-snapshot', record_counts: { documents: 1 } }))).toBe('1 snapshot');
    expect(recordSummary(cap({ record_counts: { events: 3, 'events.fault': 1, 'events.syscall': 2 } }))).toBe('2 syscalls · 1 fault');
  });
  it('names /proc stack dumps as kernel stack samples, with how many were taken in state D', () => {
    const stacks = (events: [string, number][]): Capture =>
      cap({ format: 'proc-stacks', record_counts: { samples: 120 }, events: events.map(([name, samples]) => ({ name, samples, weight: samples, unit: 'samples' })) });
    expect(recordSummary(stacks([['proc-stack:R', 59], ['proc-stack:S', 48], ['proc-stack:D', 13]]))).toBe('120 kernel stack samples (13 in state D)');
    expect(recordSummary(stacks([['proc-stack', 120]]))).toBe('120 kernel stack samples');
  });
  it('reads absent keys as 0 and falls back to the old sample count', () => {
    expect(recordSummary(cap({ record_counts: {} }))).toBe('');
    expect(recordSummary(cap({ sample_count: 169 }))).toBe('169 samples');
    expect(recordSummary(cap({ record_counts: { events: 1 } }))).toBe('1 event');
  });
});

describe('time span', () => {
  it('shows aligned captures in UTC, the end date only when it differs', () => {
    const c = cap({ clock: { mode: 'realtime', wall_clock: true, note: '', offset_ns: 0, shift_ns: 0 }, time_start: '2026-11-22T00:31:08Z', time_end: '2026-11-22T00:31:10.5Z' });
    expect(timeSpanText(c)).toBe('2026-11-22 00:31:08.000 … 00:31:10.500 UTC');
    expect(timeSpanText({ ...c, time_end: '2026-11-23T00:00:00Z', clock: { ...c.clock, mode: 'anchor' } })).toBe(
      '2026-11-22 00:31:08.000 … 2026-11-23 00:00:00.000 UTC',
    );
  });
  it('shows unaligned captures as offsets from their start', () => {
    const c = cap({ time_start: '1970-01-01T00:07:28.621373Z', time_end: '1970-01-01T00:07:48.621373Z' });
    expect(timeSpanText(c)).toBe('+0.000 s … +20.0 s (unaligned)');
    expect(timeSpanText({ ...c, time_end: '1970-01-01T00:07:30.652Z' })).toBe('+0.000 s … +2.031 s (unaligned)');
    expect(timeSpanText({ ...c, time_start: null })).toBe('–');
  });
});

describe('capture links', () => {
  const first = (c: Capture): string => captureLinks(c)[0]?.href ?? '';
  it('opens the plain view for the kind of records', () => {
    expect(first(cap({ sample_count: 10, record_counts: { samples: 10 } }))).toMatch(/^\/flame\?v=3&incident=1&captures=1$/);
    expect(first(cap({ format: 'perf-sched', record_counts: { 'events.off-cpu': 5 } }))).toMatch(/^\/flame\?.*source=off-cpu/);
    expect(first(cap({ format: 'perf-trace', record_counts: { events: 5, 'events.syscall': 5 } }))).toBe('/events?v=1&incident=1&captures=1&kind=syscall');
    expect(first(cap({ format: 'sysstat', record_counts: { metric_points: 9, metric_series: 3 } }))).toBe('/metrics?v=1&incident=1&captures=1');
    expect(first(cap({ format: 'stallscope-snapshot', record_counts: { documents: 1 } }))).toBe('/captures/1/snapshot');
    expect(captureLinks(cap({ format: null }))).toEqual([]);
  });
  it('opens /proc stack dumps on their D-state stacks when the dumps name states', () => {
    const stacks = (name: string): Capture =>
      cap({ format: 'proc-stacks', sample_count: 5, record_counts: { samples: 5 }, events: [{ name, samples: 5, weight: 5, unit: 'samples' }] });
    expect(captureLinks(stacks('proc-stack:D'))).toEqual([
      { label: 'Open kernel-stack flame graph', href: '/flame?v=3&incident=1&captures=1&source=proc-stack&state=D' },
    ]);
    expect(captureLinks(stacks('proc-stack')).map((l) => l.href)).toEqual(['/flame?v=3&incident=1&captures=1&source=proc-stack']);
  });
});

describe('host groups', () => {
  it('sorts hosts by name with "no host" last', () => {
    const groups = groupByHost([cap({ id: 1 }), cap({ id: 2, host: 'web' }), cap({ id: 3, host: 'db' }), cap({ id: 4, host: 'web' })]);
    expect(groups.map((g) => [g.host, g.captures.map((c) => c.id)])).toEqual([
      ['db', [3]],
      ['web', [2, 4]],
      [null, [1]],
    ]);
  });
});

describe('warning place', () => {
  it('names the line a warning is about, and nothing for one about the whole capture', () => {
    expect(warningPlace(89)).toBe('line 89');
    expect(warningPlace(1204)).toBe('line 1,204');
    expect(warningPlace(0)).toBeNull();
  });
});
