import { describe, expect, it } from 'vitest';
import { epochUsFromIso } from '../../shared/selection';
import { brushRange, formatClock, formatInstant, MIN_SPAN_US, pan, scaleFor, timeTicks, zoomAround } from './timeScale';

const T0 = epochUsFromIso('2026-11-21T08:00:00Z') ?? 0;

describe('scale', () => {
  it('maps microseconds to pixels and back', () => {
    const s = scaleFor({ fromUs: T0, toUs: T0 + 1_000_000 }, 1000);
    expect(s.x(T0 + 250_000)).toBe(250);
    expect(s.us(500)).toBe(T0 + 500_000);
    expect(s.pxPerUs).toBe(0.001);
  });
});

describe('zoom and pan', () => {
  const range = { fromUs: T0, toUs: T0 + 10_000_000 };

  it('zooms around a point that stays put on screen', () => {
    const z = zoomAround(range, T0 + 2_000_000, 0.5);
    expect(z).toEqual({ fromUs: T0 + 1_000_000, toUs: T0 + 6_000_000 });
    expect(zoomAround(z, T0 + 2_000_000, 2)).toEqual(range);
  });

  it('stops at tens of microseconds', () => {
    let r = range;
    for (let i = 0; i < 40; i += 1) r = zoomAround(r, T0 + 5_000_000, 0.5);
    expect(r.toUs - r.fromUs).toBe(MIN_SPAN_US);
    expect(r.fromUs).toBeLessThanOrEqual(T0 + 5_000_000);
    expect(r.toUs).toBeGreaterThanOrEqual(T0 + 5_000_000);
  });

  it('pans by a fraction of the span', () => {
    expect(pan(range, -0.25)).toEqual({ fromUs: T0 - 2_500_000, toUs: T0 + 7_500_000 });
  });

  it('turns a brushed pixel interval into an ordered range', () => {
    const s = scaleFor(range, 1000);
    expect(brushRange(s, 600, 200)).toEqual({ fromUs: T0 + 2_000_000, toUs: T0 + 6_000_000 });
    const tiny = brushRange(scaleFor({ fromUs: T0, toUs: T0 + 100 }, 1000), 10, 11);
    expect(tiny.toUs - tiny.fromUs).toBe(MIN_SPAN_US);
  });
});

describe('ticks and labels', () => {
  it('labels whole seconds in UTC and milliseconds when the step needs them', () => {
    expect(formatClock(T0 + 1_500_000, 1_000_000, 'utc')).toBe('08:00:01');
    expect(formatClock(T0 + 1_500_000, 100_000, 'utc')).toBe('08:00:01.500');
    expect(formatClock(T0 + 1_000_050, 10, 'utc')).toBe('08:00:01.000050');
    expect(formatClock(T0, 3_600e6, 'utc')).toBe('11-21 08:00');
    expect(formatInstant(T0 + 7, 'utc')).toBe('2026-11-21 08:00:00.000007 UTC');
  });

  it('puts ticks on round UTC times for wide spans', () => {
    const ticks = timeTicks({ fromUs: T0 + 300_000, toUs: T0 + 60_300_000 }, 1200);
    expect(ticks.length).toBeGreaterThan(3);
    for (const t of ticks) expect(t.us % 1_000_000).toBe(0);
    expect(ticks[0]?.utc).toMatch(/^08:00:\d\d$/);
  });

  it('puts ticks on round microseconds for spans under a millisecond', () => {
    const ticks = timeTicks({ fromUs: T0 + 10, toUs: T0 + 60 }, 1000);
    expect(ticks.length).toBeGreaterThan(3);
    for (const t of ticks) {
      expect(Number.isInteger(t.us)).toBe(true);
      expect(t.utc).toMatch(/^08:00:00\.0000\d\d$/);
    }
  });
});
