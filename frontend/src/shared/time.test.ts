import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localInputToUtcIso, offsetToIso, toLocalInputValue } from './time';

describe('datetime-local ↔ UTC', () => {
  const saved = process.env.TZ;
  beforeAll(() => {
    // A zone with a non-hour offset and no DST makes mistakes visible.
    process.env.TZ = 'Asia/Kolkata';
  });
  afterAll(() => {
    process.env.TZ = saved;
  });

  it('reads the input as local time and sends UTC', () => {
    expect(localInputToUtcIso('2026-03-08T02:30')).toBe('2026-03-07T21:00:00.000Z');
    expect(localInputToUtcIso('2026-03-08T02:30:15')).toBe('2026-03-07T21:00:15.000Z');
    expect(localInputToUtcIso('2026-03-08T02:30:15.5')).toBe('2026-03-07T21:00:15.500Z');
  });

  it('rejects invalid input', () => {
    expect(localInputToUtcIso('')).toBeNull();
    expect(localInputToUtcIso('2026-02-30T10:00')).toBeNull();
    expect(localInputToUtcIso('yesterday')).toBeNull();
  });

  it('round-trips through the input format', () => {
    const d = new Date('2026-07-01T10:15:00.000Z');
    expect(toLocalInputValue(d)).toBe('2026-07-01T15:45');
    expect(localInputToUtcIso(toLocalInputValue(d))).toBe('2026-07-01T10:15:00.000Z');
  });

  it('offsets from a capture start', () => {
    expect(offsetToIso('2026-01-01T00:00:00Z', 1.5)).toBe('2026-01-01T00:00:01.500Z');
  });
});
