import { describe, expect, it } from 'vitest';
import {
  formatBytes,
  formatCount,
  formatDurationNs,
  formatDurationSeconds,
  formatLocalTime,
  formatPercent,
  formatRelative,
  formatValue,
  share,
  spanSeconds,
} from './units';

describe('formatBytes', () => {
  it.each([
    [0, '0 B'],
    [1023, '1023 B'],
    [1024, '1.00 KiB'],
    [1536, '1.50 KiB'],
    [56 * 1024 * 1024, '56.0 MiB'],
    [226 * 1024 * 1024, '226 MiB'],
    [5 * 1024 ** 4, '5.00 TiB'],
  ])('%d → %s', (n, out) => expect(formatBytes(n)).toBe(out));
  it('rejects nonsense', () => {
    expect(formatBytes(-1)).toBe('–');
    expect(formatBytes(Number.NaN)).toBe('–');
  });
});

describe('formatCount', () => {
  it('groups thousands without depending on locale', () => {
    expect(formatCount(0)).toBe('0');
    expect(formatCount(999)).toBe('999');
    expect(formatCount(1000)).toBe('1,000');
    expect(formatCount(772514)).toBe('772,514');
    expect(formatCount(-1234567)).toBe('-1,234,567');
    expect(formatCount(1234.5)).toBe('1,234.5');
  });
});

describe('formatPercent', () => {
  it.each([
    [0, '0%'],
    [1, '100%'],
    [0.5, '50.0%'],
    [0.4793, '47.9%'],
    [0.05, '5.00%'],
    [0.0005, '0.050%'],
    [0.00001, '0.001%'],
    [0.000001, '<0.001%'],
  ])('%d → %s', (f, out) => expect(formatPercent(f)).toBe(out));
  it('share guards a zero whole', () => {
    expect(share(3, 0)).toBe(0);
    expect(share(1, 4)).toBe(0.25);
  });
});

describe('durations', () => {
  it.each([
    [512, '512 ns'],
    [1001001, '1 ms'],
    [1_500, '1.5 µs'],
    [12_345_678, '12.3 ms'],
    [2.5e9, '2.5 s'],
    [90e9, '1 min 30 s'],
    [3 * 3600e9 + 120e9, '3 h 2 min'],
  ])('%d ns → %s', (ns, out) => expect(formatDurationNs(ns)).toBe(out));
  it('seconds below one go through nanoseconds', () => {
    expect(formatDurationSeconds(0.25)).toBe('250 ms');
    expect(formatDurationSeconds(20)).toBe('20 s');
  });
});

describe('formatValue', () => {
  it('uses the unit', () => {
    expect(formatValue(1, 'samples')).toBe('1 sample');
    expect(formatValue(39856, 'samples')).toBe('39,856 samples');
    expect(formatValue(2_000_000, 'ns')).toBe('2 ms');
    expect(formatValue(7, 'events')).toBe('7 events');
    expect(formatValue(7, 'faults')).toBe('7 faults');
  });
});

describe('times', () => {
  it('spans', () => {
    expect(spanSeconds('2026-01-01T00:00:00Z', '2026-01-01T00:00:20.5Z')).toBe(20.5);
    expect(spanSeconds(null, '2026-01-01T00:00:00Z')).toBeNull();
    expect(spanSeconds('nope', '2026-01-01T00:00:00Z')).toBeNull();
  });
  it('relative', () => {
    const now = Date.parse('2026-01-01T12:00:00Z');
    expect(formatRelative('2026-01-01T11:59:50Z', now)).toBe('just now');
    expect(formatRelative('2026-01-01T09:00:00Z', now)).toBe('3 h ago');
    expect(formatRelative('2026-01-01T12:10:00Z', now)).toBe('in 10 min');
    expect(formatRelative('2025-12-30T12:00:00Z', now)).toBe('2 d ago');
  });
  it('local time falls back for bad input', () => {
    expect(formatLocalTime(null)).toBe('–');
    expect(formatLocalTime('garbage')).toBe('garbage');
    expect(formatLocalTime('2026-01-01T12:00:00Z')).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  });
});
