import { describe, expect, it } from 'vitest';
import { captureClockFromText, captureClockText, isCaptureClock, isoOrCaptureClock } from './captureClock';

describe('capture clock', () => {
  it('tells capture-clock instants from wall-clock ones', () => {
    expect(isCaptureClock(13_061_862_016)).toBe(true);
    expect(isCaptureClock(1_795_628_808_480_424)).toBe(false);
  });

  it('shows seconds, with the digits a step needs', () => {
    expect(captureClockText(13_061_862_016)).toBe('13061.862016 s');
    expect(captureClockText(13_061_862_016, 5000)).toBe('13061.862 s');
    expect(captureClockText(13_061_862_016, 2e6)).toBe('13062 s');
  });

  it('reads seconds back, and refuses what is not capture-clock seconds', () => {
    expect(captureClockFromText('13061.862016s')).toBe(13_061_862_016);
    expect(captureClockFromText(' 12 s')).toBe(12_000_000);
    expect(captureClockFromText('2026-11-25T17:46:48Z')).toBeNull();
    expect(captureClockFromText('1795628808s')).toBeNull();
  });

  it('turns a 1970 ISO time from the server into capture-clock seconds, and leaves dates alone', () => {
    expect(isoOrCaptureClock('1970-01-01T03:37:41.862016Z')).toBe('13061.862016 s');
    expect(isoOrCaptureClock('2026-11-25T17:46:48.480424Z')).toBeNull();
  });
});
