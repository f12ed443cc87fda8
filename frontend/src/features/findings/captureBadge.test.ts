import { describe, expect, it } from 'vitest';
import { captureFindings } from './captureBadge';
import { finding } from './findingFixture';

describe('captureFindings', () => {
  const findings = [
    finding({ id: 'a', title: 'Run-queue starvation', severity: 'warning', capture_ids: [3] }),
    finding({ id: 'b', title: 'mmap_lock contention', severity: 'critical', capture_ids: [3, 4] }),
    finding({ id: 'c', title: 'Dismissed one', severity: 'critical', capture_ids: [5], verdict: { verdict: 'dismissed', note: '', at: 'x' } }),
  ];

  it('count the findings a capture supports and name the most severe first', () => {
    expect(captureFindings(findings, 3)).toEqual({
      count: 2,
      severity: 'critical',
      titles: ['mmap_lock contention', 'Run-queue starvation'],
      text: '2 findings · critical',
    });
    expect(captureFindings(findings, 4)?.text).toBe('1 finding · critical');
  });

  it('say nothing for a capture no finding (or only a dismissed one) rests on', () => {
    expect(captureFindings(findings, 9)).toBeNull();
    expect(captureFindings(findings, 5)).toBeNull();
  });
});
