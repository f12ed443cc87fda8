import { describe, expect, it } from 'vitest';
import { EMPTY_SELECTION } from './selection';
import { describeRange, describeWithin, hasNarrowing } from './selectionText';

describe('selection text', () => {
  const t0 = Date.UTC(2026, 10, 21, 8, 0, 1) * 1000;

  it('describes a range with its length and one date', () => {
    expect(describeRange(t0 + 250_000, t0 + 2_000_000)).toMatch(/^2026-11-21 08:00:01\.250000 – 08:00:03\.000000 UTC \(1\.75 ?s\)$/);
    expect(describeRange(null, null)).toBeNull();
    expect(describeRange(t0, null)).toBe('2026-11-21 08:00:01.000000 – end UTC');
  });

  it('describes a within-second band', () => {
    expect(describeWithin({ startUs: 0, endUs: 20000, outside: false })).toBe('0–20 ms of every second');
    expect(describeWithin({ startUs: 500, endUs: 1500, outside: true })).toBe('outside 0.5–1.5 ms of every second');
  });

  it('knows when a selection narrows time', () => {
    expect(hasNarrowing(EMPTY_SELECTION)).toBe(false);
    expect(hasNarrowing({ ...EMPTY_SELECTION, within: { startUs: 0, endUs: 1, outside: false } })).toBe(true);
  });
});

describe('a range on a capture clock', () => {
  it('reads as seconds on the capture clock, never as 1970', () => {
    expect(describeRange(13_061_862_016, 13_063_862_016)).toBe('13061.862016 s – 13063.862016 s on the capture clock (2 s)');
  });
});
