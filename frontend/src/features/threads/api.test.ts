import { describe, expect, it } from 'vitest';
import { stripOf } from './api';

describe('thread state strip', () => {
  it('puts each segment in epoch µs and keeps its inferred mark', () => {
    const strip = stripOf({
      source: 'sched',
      tid: 15696,
      segments: [{ start: '1970-01-01T03:03:07.000000Z', end: '1970-01-01T03:03:07.000500Z', state: 'uninterruptible', inferred: true }],
    });
    expect(strip.segments[0]).toMatchObject({ state: 'uninterruptible', inferred: true });
    expect((strip.segments[0]?.endUs ?? 0) - (strip.segments[0]?.startUs ?? 0)).toBe(500);
  });

  it('refuses a time it cannot read rather than drawing it anywhere', () => {
    expect(() => stripOf({ source: 'sched', tid: 1, segments: [{ start: 'soon', end: 'later', state: 'running', inferred: false }] })).toThrow(/soon/);
  });
});
