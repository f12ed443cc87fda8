import { describe, expect, it } from 'vitest';
import {
  EMPTY_SELECTION,
  epochUsFromIso,
  formatWithin,
  instantFromText,
  instantText,
  isoFromEpochUs,
  parseWithin,
  readSelection,
  selectionApiParams,
  selectionOnly,
  viewHref,
  writeSelection,
} from './selection';

describe('times', () => {
  it('keeps microseconds both ways', () => {
    const us = epochUsFromIso('2026-11-21T08:00:01.123456Z');
    expect(us).toBe(Date.UTC(2026, 10, 21, 8, 0, 1) * 1000 + 123456);
    expect(isoFromEpochUs(us ?? 0)).toBe('2026-11-21T08:00:01.123456Z');
  });

  it('reads offsets, short fractions, and drops digits past the microsecond', () => {
    expect(epochUsFromIso('2026-11-21T09:00:01.5+01:00')).toBe(Date.UTC(2026, 10, 21, 8, 0, 1) * 1000 + 500000);
    expect(epochUsFromIso('2026-11-21T08:00:01.123456789Z')).toBe(Date.UTC(2026, 10, 21, 8, 0, 1) * 1000 + 123456);
    expect(epochUsFromIso('2026-11-21T08:00:01Z')).toBe(Date.UTC(2026, 10, 21, 8, 0, 1) * 1000);
  });

  it('refuses what is not ISO 8601 with a zone', () => {
    expect(epochUsFromIso('yesterday')).toBeNull();
    expect(epochUsFromIso('2026-11-21T08:00:01')).toBeNull();
  });

  it('writes instants before 1970 and whole seconds correctly', () => {
    expect(isoFromEpochUs(-1)).toBe('1969-12-31T23:59:59.999999Z');
    expect(isoFromEpochUs(0)).toBe('1970-01-01T00:00:00.000000Z');
  });
});

describe('readSelection / writeSelection', () => {
  it('round-trips every key and leaves other keys alone', () => {
    const s = {
      incident: 4,
      captures: [7, 9],
      hosts: ['db-1', 'db-2'],
      fromUs: 1_000_000_500_000,
      toUs: 1_000_002_000_000,
      pid: 10,
      tid: 11,
      comm: 'java',
      within: { startUs: 0, endUs: 20000, outside: true },
    };
    const p = new URLSearchParams('q=foo&from=junk');
    writeSelection(p, s);
    expect(p.get('q')).toBe('foo');
    expect(readSelection(p)).toEqual({ selection: s, warnings: [] });
  });

  it('warns about and drops bad values', () => {
    const { selection, warnings } = readSelection('incident=x&captures=1,a,1&from=soon&pid=1.5&within=5-2');
    expect(selection).toEqual({ ...EMPTY_SELECTION, captures: [1] });
    expect(warnings).toHaveLength(5);
  });

  it('drops a range that ends before it starts', () => {
    const { selection, warnings } = readSelection('from=2026-11-21T08:00:02Z&to=2026-11-21T08:00:01Z');
    expect(selection.fromUs).toBeNull();
    expect(selection.toUs).toBeNull();
    expect(warnings[0]).toMatch(/ends before it starts/);
  });
});

describe('within', () => {
  it('reads inside and outside bands and refuses the rest', () => {
    expect(parseWithin('0-20000')).toEqual({ startUs: 0, endUs: 20000, outside: false });
    expect(parseWithin('!980000-1000000')).toEqual({ startUs: 980000, endUs: 1000000, outside: true });
    expect(parseWithin('0-2000000')).toBeNull();
    expect(parseWithin('20-20')).toBeNull();
    expect(formatWithin({ startUs: 1, endUs: 2, outside: true })).toBe('!1-2');
  });
});

describe('links between views', () => {
  it('carries the selection and nothing else', () => {
    expect(selectionOnly('incident=3&q=x&zoom=a&tid=5').toString()).toBe('incident=3&tid=5');
    expect(viewHref('/threads', 'incident=3&q=x', { sort: 'D' })).toBe('/threads?incident=3&sort=D');
    expect(viewHref('/timeline', '')).toBe('/timeline');
  });

  it('turns a selection into API parameters', () => {
    const p = selectionApiParams({ ...EMPTY_SELECTION, fromUs: 1_500_000, tid: 3 }, [1, 2]);
    expect(p.toString()).toBe('captures=1%2C2&start=1970-01-01T00%3A00%3A01.500000Z&tid=3');
  });
});

describe('capture-clock times in links', () => {
  it('writes an unaligned range as seconds and reads it back, wall-clock ranges as ISO', () => {
    const ownClock = writeSelection(new URLSearchParams(), { ...EMPTY_SELECTION, fromUs: 13_061_862_016, toUs: 13_070_000_000 });
    expect(ownClock.get('from')).toBe('13061.862016s');
    expect(readSelection(ownClock).selection).toMatchObject({ fromUs: 13_061_862_016, toUs: 13_070_000_000 });
    const wall = writeSelection(new URLSearchParams(), { ...EMPTY_SELECTION, fromUs: 1_795_628_808_480_424 });
    expect(wall.get('from')).toBe('2026-11-25T17:46:48.480424Z');
    expect(instantFromText('2026-11-25T17:46:48.480424Z')).toBe(1_795_628_808_480_424);
    expect(instantText(13_061_862_016)).toBe('13061.862016s');
  });
});
