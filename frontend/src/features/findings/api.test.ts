import { describe, expect, it } from 'vitest';
import { givenVerdict } from './api';

describe('givenVerdict', () => {
  it('keeps a stored verdict, and reads a cleared one as none', () => {
    expect(givenVerdict({ verdict: 'confirmed', note: 'seen in perf trace', at: '2026-11-25T21:01:00Z' })).toEqual({
      verdict: 'confirmed',
      note: 'seen in perf trace',
      at: '2026-11-25T21:01:00Z',
    });
    expect(givenVerdict({ verdict: null, note: '', at: null })).toBeNull();
  });
});
