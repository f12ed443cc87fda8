import { describe, expect, it } from 'vitest';
import { InteractionClock, measure } from './timing';

describe('measure', () => {
  it('returns the duration', () => {
    expect(measure('test:x', 10, 35)).toBe(25);
  });
});

describe('InteractionClock', () => {
  it('times from the first unanswered action to the settled view', () => {
    const clock = new InteractionClock('flame');
    clock.begin('zoom', 100);
    clock.begin('search', 300); // a search committed while the zoom is still loading joins it
    expect(clock.pending).toBe('zoom');
    expect(clock.settle(1000)).toEqual({ kind: 'zoom', ms: 900 });
    expect(clock.settledAt).toBe(1000);
    expect(clock.settle(1200)).toBeNull();
  });

  it('can be cancelled when nothing will be drawn', () => {
    const clock = new InteractionClock('flame');
    clock.begin('render', 5);
    clock.cancel();
    expect(clock.pending).toBeNull();
    clock.begin('search', 50);
    expect(clock.settle(80)).toEqual({ kind: 'search', ms: 30 });
  });
});
