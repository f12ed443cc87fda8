import { describe, expect, it } from 'vitest';
import type { DiffNode } from './api';
import { diffColor, diffHsl, GREW, largestChange, NEUTRAL, ONLY_A, ONLY_B, onlyIn, OTHER, outlined, SHRANK } from './colors';

const node = (name: string, a: number, b: number, delta = b - a, children: DiffNode[] = [], kind: DiffNode['kind'] = 'user'): DiffNode => ({
  name,
  kind,
  value: b,
  samples: 0,
  a,
  b,
  delta,
  share_delta: 0,
  children,
});

describe('diff colours', () => {
  it('is red for growth and blue for shrinkage, strongest at the largest change', () => {
    expect(diffHsl(node('f', 1, 3), 'b', 2)).toEqual({ ...GREW });
    expect(diffHsl(node('f', 3, 1), 'b', 2)).toEqual({ ...SHRANK });
    const half = diffHsl(node('f', 2, 3), 'b', 4);
    expect(half.h).toBe(GREW.h);
    expect(half.s).toBeGreaterThan(NEUTRAL.s);
    expect(half.s).toBeLessThan(GREW.s);
    expect(diffHsl(node('f', 2, 2), 'b', 4)).toEqual(NEUTRAL);
  });

  it('grows with the size of the change, not with the frame', () => {
    const small = diffHsl(node('small', 1, 2), 'b', 10);
    const large = diffHsl(node('large', 100, 108), 'b', 10);
    expect(large.s).toBeGreaterThan(small.s);
  });

  it('marks frames only on the side drawn', () => {
    const fresh = node('new', 0, 5);
    const gone = node('gone', 5, 0);
    expect(onlyIn(fresh)).toBe('b');
    expect(onlyIn(gone)).toBe('a');
    expect(diffHsl(fresh, 'b', 5)).toEqual(ONLY_B);
    expect(outlined(fresh, 'b')).toBe(true);
    expect(outlined(fresh, 'a')).toBe(false);
    expect(diffHsl(gone, 'a', 5)).toEqual(ONLY_A);
    expect(outlined(gone, 'a')).toBe(true);
    expect(diffHsl(gone, 'b', 5)).toEqual(SHRANK);
  });

  it('keeps (other) and the root out of it', () => {
    expect(diffHsl(node('(other)', 0, 9, 9, [], 'other'), 'b', 9)).toEqual(OTHER);
    expect(outlined(node('(other)', 0, 9, 9, [], 'other'), 'b')).toBe(false);
    const root = node('all', 10, 20, 0, [node('app', 10, 20, 4, [node('f', 2, 14, 11)], 'process'), node('(other)', 0, 0, -30, [], 'other')], 'root');
    expect(largestChange(root)).toBe(11);
    expect(diffColor(root, 'b', 11)).toBe('hsl(220 8% 60%)');
  });

  it('greys (deeper) frames like (other): they stand for many frames', () => {
    const deeper = node('(deeper)', 0, 9, 9, [], 'deeper');
    expect(diffHsl(deeper, 'b', 9)).toEqual(OTHER);
    expect(outlined(deeper, 'b')).toBe(false);
    expect(largestChange(node('all', 0, 9, 9, [node('f', 0, 9, 2, [deeper])], 'root'))).toBe(2);
  });
});
