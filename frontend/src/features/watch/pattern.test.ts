import { describe, expect, it } from 'vitest';
import { asJavaScriptPattern, patternProblem } from './pattern';

describe('Python syntax rewritten for the browser check', () => {
  it('drops global flags and keeps scoped ones as plain groups', () => {
    expect(asJavaScriptPattern('(?i)kretprobe_')).toBe('kretprobe_');
    expect(asJavaScriptPattern('(?i:foo)|bar')).toBe('(?:foo)|bar');
    expect(asJavaScriptPattern('(?-i:foo)')).toBe('(?:foo)');
  });

  it('names groups and back-references the JavaScript way', () => {
    expect(asJavaScriptPattern('(?P<fn>foo)-(?P=fn)')).toBe('(?<fn>foo)-\\k<fn>');
  });

  it('drops possessive marks, atomic groups, comments and conditions', () => {
    expect(asJavaScriptPattern('a*+b')).toBe('a*b');
    expect(asJavaScriptPattern('a{2}+')).toBe('a{2}');
    expect(asJavaScriptPattern('(?>ab)c')).toBe('(?:ab)c');
    expect(asJavaScriptPattern('(?#why)x')).toBe('x');
    expect(asJavaScriptPattern('(a)(?(1)b|c)')).toBe('(a)(?:b|c)');
  });

  it('reads {,n} as a repeat from 0', () => {
    expect(asJavaScriptPattern('a{,3}')).toBe('a{0,3}');
  });

  it('leaves escapes, classes, look-arounds and lazy repeats alone', () => {
    for (const same of ['\\++', '[*+]+', '(?=x)y', '(?<=ab)c', '(?<!a)b', 'a+?', 'a*?b', '(?:a)+', 'do_sys_open$']) {
      expect(asJavaScriptPattern(same)).toBe(same);
    }
  });

  it('escapes a ] that opens a class, which Python reads as a character', () => {
    expect(asJavaScriptPattern('[]a]')).toBe('[\\]a]');
    expect(asJavaScriptPattern('[^]a]')).toBe('[^\\]a]');
  });
});

describe('pattern problems', () => {
  it('accepts expressions Python accepts, its own syntax included', () => {
    for (const ok of ['kretprobe_', 'native_queued_spin_lock_slowpath', '(?i)^do_sys_open$', '(?P<x>a)(?P=x)', 'a++', '[]x]', 'mutex_(lock|unlock)']) {
      expect(patternProblem(ok, 'pattern')).toBeNull();
    }
  });

  it('says in words what both dialects refuse', () => {
    expect(patternProblem('(foo', 'pattern')).toBe('the pattern expression is not a regular expression: unterminated group');
    expect(patternProblem('*foo', 'process')).toBe('the process expression is not a regular expression: nothing to repeat');
    expect(patternProblem('a{2,1}', 'pattern')).toMatch(/^the pattern expression is not a regular expression: /);
  });

  it('refuses an empty or too long expression, as the server does', () => {
    expect(patternProblem('', 'pattern')).toBe('the pattern expression is empty: it would match every name');
    expect(patternProblem('x'.repeat(1001), 'pattern')).toBe('the pattern expression is 1001 characters; at most 1000');
  });

  it('leaves to the server what only Python refuses', () => {
    // A look-behind of variable width: JavaScript allows it, Python does not; the server says so.
    expect(patternProblem('(?<=a+)b', 'pattern')).toBeNull();
  });
});
