import { describe, expect, it } from 'vitest';
import { eventDuration, eventTimeUtc } from './eventFormat';
import { decodeEventsView, encodeEventsView, EMPTY_EVENTS_VIEW, eventsHref } from './eventsView';

describe('event formatting', () => {
  it('says "unclosed" for a missing duration, never 0', () => {
    expect(eventDuration(null)).toBe('unclosed');
    expect(eventDuration(0)).toBe('0 ns');
    expect(eventDuration(16_921_000)).toBe('16.9 ms');
    expect(eventDuration(1_998_260_000)).toBe('2 s');
    expect(eventDuration(1_500)).toBe('1.5 µs');
  });
  it('keeps microseconds of UTC times', () => {
    expect(eventTimeUtc('2026-11-22T00:31:08.014546Z')).toBe('2026-11-22 00:31:08.014546');
    expect(eventTimeUtc('2026-11-22T00:31:08Z')).toBe('2026-11-22 00:31:08.000000');
    expect(eventTimeUtc('2026-11-22T00:31:08.5+00:00')).toBe('2026-11-22 00:31:08.500000');
    expect(eventTimeUtc('garbage')).toBe('garbage');
  });
  it('shows an unaligned capture on its own clock, never as 1970', () => {
    expect(eventTimeUtc('1970-01-01T03:37:41.862016Z')).toBe('13061.862016 s');
  });
});

describe('events view in the URL', () => {
  it('round-trips and omits defaults (slowest first)', () => {
    expect(eventsHref({ captures: [1, 2], kind: 'syscall' })).toBe('/events?v=1&captures=1%2C2&kind=syscall');
    const s = { ...EMPTY_EVENTS_VIEW, incident: 4, captures: [3], kind: 'off-cpu', name: 'futex & co', sort: 'time' as const, descending: false, page: 3 };
    expect(decodeEventsView(encodeEventsView(s))).toEqual(s);
  });
  it('reads bad values as defaults', () => {
    expect(decodeEventsView('captures=x,2,2&sort=size&page=-1')).toEqual({ ...EMPTY_EVENTS_VIEW, captures: [2] });
  });
});
