import { describe, expect, it } from 'vitest';
import { capturesLabel, clip, incidentLabel } from './breadcrumbs';

describe('breadcrumb words', () => {
  it('names an incident by its title once it is known', () => {
    expect(incidentLabel(4, 'Checkout p99 at 2 s')).toBe('#4 Checkout p99 at 2 s');
    expect(incidentLabel(4, undefined)).toBe('#4');
    expect(incidentLabel(4, '   ')).toBe('#4');
  });

  it('names captures by file name, and many by their number', () => {
    const known = [
      { id: 1, filename: 'perf.txt' },
      { id: 2, filename: 'sched.txt' },
    ];
    expect(capturesLabel([2], known)).toBe('sched.txt');
    expect(capturesLabel([1, 2], known)).toBe('perf.txt and sched.txt');
    expect(capturesLabel([1, 2, 3], known)).toBe('3 captures');
    expect(capturesLabel([9], known)).toBe('#9');
    expect(capturesLabel([9], undefined)).toBe('#9');
    expect(capturesLabel([], known)).toBe('');
  });

  it('cuts long names', () => {
    expect(clip('a'.repeat(60), 10)).toBe(`${'a'.repeat(9)}…`);
    expect(clip('short', 10)).toBe('short');
  });
});
