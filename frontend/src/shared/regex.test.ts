import { describe, expect, it } from 'vitest';
import { escapeRegExp, literalMatcher } from './regex';

describe('escapeRegExp', () => {
  it('makes every special character literal', () => {
    const specials = '.*+?^${}()|[]\\/-';
    const re = new RegExp(`^${escapeRegExp(specials)}$`);
    expect(re.test(specials)).toBe(true);
  });
  it('does not throw on patterns that are invalid regexes', () => {
    expect(() => new RegExp(escapeRegExp('('))).not.toThrow();
    expect(() => new RegExp(escapeRegExp('[unknown'))).not.toThrow();
  });
});

describe('literalMatcher', () => {
  it('matches substrings literally and case-insensitively', () => {
    const m = literalMatcher('[unknown]');
    expect(m('[unknown]')).toBe(true);
    expect(m('x [UNKNOWN] y')).toBe(true);
    expect(m('u')).toBe(false); // as a regex, "[unknown]" would match any of those letters
  });
  it('handles C++ and Java names', () => {
    expect(literalMatcher('operator<<')('std::ostream::operator<<(int)')).toBe(true);
    expect(literalMatcher('Lfoo/Bar;.baz(I)V')('Lfoo/Bar;.baz(I)V')).toBe(true);
    expect(literalMatcher('a.b')('axb')).toBe(false);
  });
  it('matches nothing for an empty or blank term', () => {
    expect(literalMatcher('')('anything')).toBe(false);
    expect(literalMatcher('   ')('anything')).toBe(false);
  });
});
