import { describe, expect, it } from 'vitest';
import { TimelineClock } from './timing';

describe('timeline clock', () => {
  it('times a brush from the mouse-up, data arriving meanwhile included', () => {
    const clock = new TimelineClock();
    clock.begin('brush', 100);
    clock.begin('render', 250); // the brushed range's data arrives: part of the brush
    expect(clock.settle(300)).toEqual({ kind: 'brush', ms: 200 });
    expect(clock.settle(400)).toBeNull();
  });

  it('lets a zoom replace a render still waiting, but not an earlier zoom', () => {
    const clock = new TimelineClock();
    clock.begin('render', 100);
    clock.begin('zoom', 150);
    clock.begin('zoom', 180);
    expect(clock.settle(200)).toEqual({ kind: 'zoom', ms: 50 });
  });

  it('drops a wait that will never be drawn', () => {
    const clock = new TimelineClock();
    clock.begin('zoom', 10);
    clock.cancel();
    expect(clock.pending).toBeNull();
    expect(clock.settle(20)).toBeNull();
  });
});
