import { describe, expect, it } from 'vitest';
import type { DiffFunction } from './api';
import { DEFAULT_ORDER, nextOrder, relativeChange, sortFunctions } from './table';

const f = (name: string, total_a: number, total_b: number, self_delta: number, total_delta = total_b - total_a): DiffFunction => ({
  name,
  self_a: 0,
  self_b: 0,
  self_delta,
  total_a,
  total_b,
  total_delta,
});

const ROWS = [f('grew', 10, 30, 1), f('shrank', 50, 20, -30), f('flat', 90, 90, 0), f('selfish', 5, 8, 40)];
const names = (rows: DiffFunction[]) => rows.map((r) => r.name);

describe('function table', () => {
  it('sorts by the size of the change either way, largest first', () => {
    expect(names(sortFunctions(ROWS, DEFAULT_ORDER))).toEqual(['shrank', 'grew', 'selfish', 'flat']);
    expect(names(sortFunctions(ROWS, { by: 'self', descending: true }))).toEqual(['selfish', 'shrank', 'grew', 'flat']);
    expect(names(sortFunctions(ROWS, { by: 'total', descending: false }))).toEqual(['flat', 'selfish', 'grew', 'shrank']);
  });

  it('sorts by either side’s weight', () => {
    expect(names(sortFunctions(ROWS, { by: 'a', descending: true }))).toEqual(['flat', 'shrank', 'grew', 'selfish']);
    expect(names(sortFunctions(ROWS, { by: 'b', descending: true }))).toEqual(['flat', 'grew', 'shrank', 'selfish']);
  });

  it('breaks ties by weight then name, whatever the input order', () => {
    const tied = [f('b', 1, 2, 0), f('a', 1, 2, 0), f('heavy', 10, 11, 0)];
    expect(names(sortFunctions(tied, DEFAULT_ORDER))).toEqual(['heavy', 'a', 'b']);
    expect(names(sortFunctions([...tied].reverse(), DEFAULT_ORDER))).toEqual(['heavy', 'a', 'b']);
  });

  it('flips the direction on a second click', () => {
    expect(nextOrder(DEFAULT_ORDER, 'total')).toEqual({ by: 'total', descending: false });
    expect(nextOrder(DEFAULT_ORDER, 'a')).toEqual({ by: 'a', descending: true });
  });

  it('says how much a function changed against A scaled', () => {
    expect(relativeChange(10, 20, 1)).toBe('+100%');
    expect(relativeChange(20, 10, 1)).toBe('−50.0%');
    expect(relativeChange(20, 10, 0.5)).toBe('0%');
    expect(relativeChange(0, 10, 1)).toBe('new');
    expect(relativeChange(10, 0, 1)).toBe('gone');
  });
});
