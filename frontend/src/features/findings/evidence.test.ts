import { describe, expect, it } from 'vitest';
import { consolePath, formatFigure, isWebLink } from './evidence';

describe('evidence display', () => {
  it('format a figure in its unit', () => {
    expect(formatFigure(0.412, 'share')).toBe('41.2%');
    expect(formatFigure(0, 'share')).toBe('0%');
    expect(formatFigure(12.5, 'percent')).toBe('12.5%');
    expect(formatFigure(2_310_000_000, 'ns')).toMatch(/^2\.31 ?s$/);
    expect(formatFigure(1.23456789, null)).toBe('1.235');
  });

  it('link only to the console’s own paths and to web references', () => {
    expect(consolePath('/flame?incident=1')).toBe('/flame?incident=1');
    expect(consolePath('//evil.example/x')).toBeNull();
    expect(consolePath('https://evil.example/')).toBeNull();
    expect(consolePath(null)).toBeNull();
    expect(isWebLink('https://lwn.net/Articles/893906/')).toBe(true);
    expect(isWebLink('javascript:alert(1)')).toBe(false);
  });
});
