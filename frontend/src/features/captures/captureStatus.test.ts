import { describe, expect, it } from 'vitest';
import type { Capture } from '../../api/types';
import { isReady, issueCount, pollInterval, sizeText, spanText, statusText } from './captureStatus';

const base: Capture = {
  id: 1,
  incident_id: 1,
  host: null,
  filename: 'perf.txt',
  format: 'perf-script',
  status: 'ready',
  progress: 1,
  error: null,
  warnings: [],
  dropped_lines: 0,
  truncated: false,
  sha256: 'ab',
  compression: 'none',
  size_bytes: 2048,
  size_uncompressed: null,
  sample_count: 169,
  stack_count: 2,
  thread_count: 1,
  events: [{ name: 'cpu-clock', samples: 169 }],
  time_start: '2026-01-01T00:00:00Z',
  time_end: '2026-01-01T00:00:20Z',
  clock: { mode: 'unaligned', note: '' },
  created_at: '2026-01-01T00:00:00Z',
  parsed_at: null,
};

describe('capture status', () => {
  it('polls only while something is queued or parsing', () => {
    expect(pollInterval(undefined)).toBe(false);
    expect(pollInterval([base])).toBe(false);
    expect(pollInterval([base, { ...base, status: 'queued' }])).toBe(1000);
    expect(pollInterval([{ ...base, status: 'parsing' }])).toBe(1000);
    expect(pollInterval([{ ...base, status: 'failed' }])).toBe(false);
  });
  it('describes progress', () => {
    expect(statusText({ ...base, status: 'parsing', progress: 0.427 })).toBe('parsing 42%');
    expect(statusText({ ...base, status: 'parsing', progress: 7 })).toBe('parsing 100%');
    expect(statusText(base)).toBe('ready');
  });
  it('ready includes partial', () => {
    expect(isReady({ ...base, status: 'partial' })).toBe(true);
    expect(isReady({ ...base, status: 'failed' })).toBe(false);
  });
  it('formats size and span', () => {
    expect(sizeText(base)).toBe('2.00 KiB');
    expect(sizeText({ ...base, compression: 'gzip', size_bytes: 56 * 2 ** 20, size_uncompressed: 600 * 2 ** 20 })).toBe('56.0 MiB gzip → 600 MiB');
    expect(spanText(base)).toBe('20 s');
    expect(spanText({ ...base, time_end: null })).toBe('–');
  });
  it('counts issues', () => {
    expect(issueCount(base)).toBe(0);
    expect(issueCount({ ...base, dropped_lines: 3, warnings: [{ line: 1, message: 'x' }], truncated: true })).toBe(3);
  });
});
