/**
 * The audit page's filters live in the URL (so a filtered view can be linked and reloaded), and the
 * same values make the API query. `since`/`until` are ISO times; `before` is the id to page back from.
 */
export const AUDIT_PAGE_SIZE = 200;

export interface AuditFilters {
  actor: string;
  action: string;
  /** An incident id, as typed. */
  incident: string;
  since: string;
  until: string;
  /** Entries older than this id; null: the newest page. */
  before: number | null;
}

export const NO_FILTERS: AuditFilters = { actor: '', action: '', incident: '', since: '', until: '', before: null };

const TEXT_KEYS = ['actor', 'action', 'incident', 'since', 'until'] as const;

export function decodeAuditFilters(params: URLSearchParams): AuditFilters {
  const before = Number(params.get('before'));
  const incident = (params.get('incident') ?? '').trim();
  return {
    actor: (params.get('actor') ?? '').trim(),
    action: (params.get('action') ?? '').trim(),
    incident: /^\d+$/.test(incident) ? incident : '',
    since: (params.get('since') ?? '').trim(),
    until: (params.get('until') ?? '').trim(),
    before: Number.isInteger(before) && before > 0 ? before : null,
  };
}

/** Only what is set, so an unfiltered page has a clean URL. */
export function encodeAuditFilters(f: AuditFilters): URLSearchParams {
  const out = new URLSearchParams();
  for (const key of TEXT_KEYS) if (f[key].trim()) out.set(key, f[key].trim());
  if (f.before !== null) out.set('before', String(f.before));
  return out;
}

/** The API's query: the URL's filters and a page size. */
export function auditQuery(f: AuditFilters): URLSearchParams {
  const out = encodeAuditFilters(f);
  out.set('limit', String(AUDIT_PAGE_SIZE));
  return out;
}

/** The next (older) page starts below the last entry shown; none when this page was not full. */
export function olderPage(f: AuditFilters, ids: readonly number[]): AuditFilters | null {
  if (ids.length < AUDIT_PAGE_SIZE) return null;
  return { ...f, before: Math.min(...ids) };
}
