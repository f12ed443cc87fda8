import { describe, expect, it } from 'vitest';
import { AUDIT_PAGE_SIZE, NO_FILTERS, auditQuery, decodeAuditFilters, encodeAuditFilters, olderPage } from './auditFilters';

describe('audit filters in the URL', () => {
  it('round-trips what is set and leaves the rest out', () => {
    const f = { ...NO_FILTERS, actor: 'ana', incident: '4', since: '2026-03-01T00:00:00.000Z', before: 120 };
    const params = encodeAuditFilters(f);
    expect(params.toString()).toBe('actor=ana&incident=4&since=2026-03-01T00%3A00%3A00.000Z&before=120');
    expect(decodeAuditFilters(params)).toEqual(f);
  });
  it('an empty page has a clean URL', () => {
    expect(encodeAuditFilters(NO_FILTERS).toString()).toBe('');
  });
  it('ignores an incident or a cursor that is not an id', () => {
    const f = decodeAuditFilters(new URLSearchParams('incident=abc&before=-3'));
    expect(f.incident).toBe('');
    expect(f.before).toBeNull();
  });
  it('asks the API for one page', () => {
    expect(auditQuery({ ...NO_FILTERS, action: 'login' }).toString()).toBe(`action=login&limit=${AUDIT_PAGE_SIZE}`);
  });
});

describe('olderPage', () => {
  it('pages back from the oldest entry shown when the page was full', () => {
    const ids = Array.from({ length: AUDIT_PAGE_SIZE }, (_, i) => 500 - i);
    expect(olderPage({ ...NO_FILTERS, actor: 'ana' }, ids)).toEqual({ ...NO_FILTERS, actor: 'ana', before: 500 - AUDIT_PAGE_SIZE + 1 });
  });
  it('has no older page after a short one', () => {
    expect(olderPage(NO_FILTERS, [3, 2, 1])).toBeNull();
  });
});
