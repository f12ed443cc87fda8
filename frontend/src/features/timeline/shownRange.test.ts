import { describe, expect, it } from 'vitest';
import type { TrackListing } from './api';
import { listingRange, shownRange } from './shownRange';

const listing = (start: string | null, end: string | null): TrackListing => ({ incident: 1, time_start: start, time_end: end, hosts: [] });
const incident = listing('2026-11-21T08:00:00Z', '2026-11-21T08:01:00Z');
const T0 = Date.parse('2026-11-21T08:00:00Z') * 1000;
const MINUTE = 60_000_000;

describe('shown range', () => {
  it('is the whole incident without from/to, and nothing before any capture has times', () => {
    expect(listingRange(incident)).toEqual({ fromUs: T0, toUs: T0 + MINUTE });
    expect(shownRange({ fromUs: null, toUs: null }, incident)).toEqual({ fromUs: T0, toUs: T0 + MINUTE });
    expect(shownRange({ fromUs: null, toUs: null }, listing(null, null))).toBeNull();
    expect(listingRange(listing('2026-11-21T08:00:00Z', '2026-11-21T08:00:00Z'))).toBeNull();
  });

  it('takes from/to as they are, even outside the incident or without any capture', () => {
    expect(shownRange({ fromUs: 5, toUs: 9 }, listing(null, null))).toEqual({ fromUs: 5, toUs: 9 });
  });

  it('fills a missing end from the incident, and falls back to it when the ends cross', () => {
    expect(shownRange({ fromUs: T0 + 1000, toUs: null }, incident)).toEqual({ fromUs: T0 + 1000, toUs: T0 + MINUTE });
    expect(shownRange({ fromUs: null, toUs: T0 + 1000 }, incident)).toEqual({ fromUs: T0, toUs: T0 + 1000 });
    expect(shownRange({ fromUs: T0 + 2 * MINUTE, toUs: null }, incident)).toEqual({ fromUs: T0, toUs: T0 + MINUTE });
  });
});
