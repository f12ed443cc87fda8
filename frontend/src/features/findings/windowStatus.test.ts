import { describe, expect, it } from 'vitest';
import { EMPTY_SELECTION, epochUsFromIso } from '../../shared/selection';
import { windowFindingsOf, type WindowRequest, type WindowSide } from './windowApi';
import { comparedText, detectorsRan, noPatternText, staleReason, windowRequest } from './windowStatus';

const us = (iso: string): number => {
  const v = epochUsFromIso(iso);
  if (v === null) throw new Error(iso);
  return v;
};

const span = (start: string, end: string) => ({ start, end });
const answer = (window: { start: string; end: string }, baseline: { side: WindowSide; start: string; end: string } | null) =>
  windowFindingsOf({ window, baseline, hosts: [], capture_ids: [], duration_ms: 1, notes: [], findings: [] });

describe('what was compared', () => {
  it('names both spans on the timeline’s UTC clock, and the side', () => {
    const a = answer(span('2026-11-25T08:03:10.2Z', '2026-11-25T08:03:12Z'), { side: 'before', start: '2026-11-25T08:00:00Z', end: '2026-11-25T08:03:10.2Z' });
    expect(comparedText(a)).toBe('08:03:10.200 → 08:03:12.000 against 08:00:00.000 → 08:03:10.200 (the time before, UTC)');
  });

  it('says the side the server used, which may be the other one', () => {
    const a = answer(span('2026-11-25T08:00:00Z', '2026-11-25T08:03:00Z'), { side: 'after', start: '2026-11-25T08:03:00Z', end: '2026-11-25T08:10:00Z' });
    expect(comparedText(a)).toBe('08:00:00 → 08:03:00 against 08:03:00 → 08:10:00 (the time after, UTC)');
  });

  it('shows µs when the spans are too short for ms to tell their ends apart', () => {
    const a = answer(span('2026-11-25T08:00:00.001234Z', '2026-11-25T08:00:00.005678Z'), { side: 'before', start: '2026-11-25T08:00:00Z', end: '2026-11-25T08:00:00.001234Z' });
    expect(comparedText(a)).toBe('08:00:00.001234 → 08:00:00.005678 against 08:00:00.000000 → 08:00:00.001234 (the time before, UTC)');
  });

  it('shows a capture’s own clock as seconds, never as a 1970 date', () => {
    const a = answer(span('1970-01-01T03:37:41.862016Z', '1970-01-01T03:37:43.5Z'), { side: 'after', start: '1970-01-01T03:37:43.5Z', end: '1970-01-01T03:38:20Z' });
    const text = comparedText(a);
    expect(text).toBe('13061.862 s → 13063.500 s against 13063.500 s → 13100.000 s (the time after, capture clock)');
    expect(text).not.toMatch(/1970|03:37/);
  });

  it('says when there was nothing to compare with', () => {
    const a = answer(span('2026-11-25T08:00:00Z', '2026-11-25T08:00:02Z'), null);
    expect(comparedText(a)).toBe('08:00:00.000 → 08:00:02.000 (UTC) against nothing: the window covers all the captures’ time');
  });
});

describe('stale answers', () => {
  const from = us('2026-11-25T08:03:10.2Z');
  const asked: WindowRequest = { incident: 3, fromUs: from, toUs: from + 1_800_000, hosts: ['a', 'b'], side: 'before' };

  it('fit the selection they were asked for (hosts in any order)', () => {
    expect(staleReason(asked, { ...asked, hosts: ['b', 'a'] })).toBeNull();
  });

  it('are stale once the range moves by a µs at either end, or goes away', () => {
    expect(staleReason(asked, { ...asked, fromUs: from + 1 })).toBe('The window moved: ask again.');
    expect(staleReason(asked, { ...asked, toUs: asked.toUs - 1 })).toBe('The window moved: ask again.');
    expect(staleReason(asked, null)).toBe('The window moved: ask again.');
    expect(staleReason(asked, { ...asked, incident: 4 })).toBe('The window moved: ask again.');
  });

  it('are stale when the hosts or the side to compare with change', () => {
    expect(staleReason(asked, { ...asked, hosts: ['a'] })).toBe('The hosts changed: ask again.');
    expect(staleReason(asked, { ...asked, side: 'after' })).toBe('The comparison changed: ask again.');
  });

  it('are asked for only when the selection has a time range', () => {
    const sel = { ...EMPTY_SELECTION, incident: 3, hosts: ['a'] };
    expect(windowRequest(3, sel, 'before')).toBeNull();
    expect(windowRequest(3, { ...sel, fromUs: from }, 'before')).toBeNull();
    expect(windowRequest(3, { ...sel, fromUs: from, toUs: from + 5 }, 'after')).toEqual({ incident: 3, fromUs: from, toUs: from + 5, hosts: ['a'], side: 'after' });
  });
});

describe('empty state', () => {
  it('counts the detectors that ran when a note says how many', () => {
    expect(detectorsRan(['Nothing comes before the window.', '9 detectors ran on the captures of db-1.'])).toBe(9);
    expect(detectorsRan(['Nothing comes before the window.'])).toBeNull();
    expect(noPatternText(9)).toBe('No known pattern in this window (9 detectors ran)');
    expect(noPatternText(null)).toBe('No known pattern in this window');
  });
});
