import { describe, expect, it } from 'vitest';
import { base } from './captureFixture';
import { isReady, issueCount, pollInterval, sizeText, spanText, statusText } from './captureStatus';


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
  it('an empty upload is its own status: done, not ready, not failed', () => {
    const empty = { ...base, status: 'empty' as const };
    expect(statusText(empty)).toBe('empty');
    expect(isReady(empty)).toBe(false);
    expect(pollInterval([empty])).toBe(false);
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
