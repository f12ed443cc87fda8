import { describe, expect, it } from 'vitest';
import { loginHref, safeNext } from './nextPath';

describe('safeNext', () => {
  it('keeps a path on this console, with its query and hash', () => {
    expect(safeNext('/incidents')).toBe('/incidents');
    expect(safeNext('/flame?incident=4&captures=1,2#x')).toBe('/flame?incident=4&captures=1,2#x');
  });
  it('goes home when there is nothing', () => {
    expect(safeNext(null)).toBe('/');
    expect(safeNext(undefined)).toBe('/');
    expect(safeNext('')).toBe('/');
  });
  it.each([
    'https://evil.example/',
    'http://evil.example/incidents',
    '//evil.example/x',
    '/\\evil.example',
    '\\\\evil.example',
    'javascript:alert(1)',
    'incidents',
    '/\t/evil.example',
    '/\n/evil.example',
    '/a/..//evil.example',
  ])('never follows %j off the console', (raw) => {
    expect(safeNext(raw)).toBe('/');
  });
  it('does not loop back to the sign-in page', () => {
    expect(safeNext('/login')).toBe('/');
    expect(safeNext('/login?next=%2Fincidents')).toBe('/');
  });
});

describe('loginHref', () => {
  it('comes back to the whole location', () => {
    expect(loginHref({ pathname: '/timeline', search: '?incident=3', hash: '' })).toBe('/login?next=%2Ftimeline%3Fincident%3D3');
  });
  it('has no next for the home page', () => {
    expect(loginHref({ pathname: '/', search: '', hash: '' })).toBe('/login');
  });
});
