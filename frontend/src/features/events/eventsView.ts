/** The events table's view state in the URL (`/events?v=1&captures=1,2&kind=syscall&…`). Pure. */

export const EVENTS_VIEW_VERSION = 1;
export const EVENTS_PAGE_SIZE = 200;

export type EventSort = 'duration' | 'time';

export interface EventsViewState {
  incident: number | null;
  captures: number[];
  kind: string | null;
  /** Exact event name (futex, off-cpu, …). */
  name: string;
  sort: EventSort;
  descending: boolean;
  /** Zero-based page of EVENTS_PAGE_SIZE rows. */
  page: number;
}

export const EMPTY_EVENTS_VIEW: EventsViewState = {
  incident: null,
  captures: [],
  kind: null,
  name: '',
  sort: 'duration',
  descending: true,
  page: 0,
};

export function encodeEventsView(s: EventsViewState): URLSearchParams {
  const p = new URLSearchParams();
  p.set('v', String(EVENTS_VIEW_VERSION));
  if (s.incident !== null) p.set('incident', String(s.incident));
  if (s.captures.length > 0) p.set('captures', s.captures.join(','));
  if (s.kind) p.set('kind', s.kind);
  if (s.name) p.set('name', s.name);
  if (s.sort !== 'duration') p.set('sort', s.sort);
  // Slowest (or latest) first is the default; only the other direction is written.
  if (!s.descending) p.set('dir', 'asc');
  if (s.page > 0) p.set('page', String(s.page));
  return p;
}

export function parseIds(raw: string | null): number[] {
  const out: number[] = [];
  for (const part of (raw ?? '').split(',')) {
    const n = Number(part);
    if (part.trim() !== '' && Number.isInteger(n) && n > 0 && !out.includes(n)) out.push(n);
  }
  return out;
}

function wholeOrNull(raw: string | null): number | null {
  if (raw === null || raw === '') return null;
  const n = Number(raw);
  return Number.isInteger(n) ? n : null;
}

export function decodeEventsView(input: URLSearchParams | string): EventsViewState {
  const p = new URLSearchParams(input);
  const page = wholeOrNull(p.get('page'));
  return {
    incident: wholeOrNull(p.get('incident')),
    captures: parseIds(p.get('captures')),
    kind: p.get('kind') || null,
    name: p.get('name') ?? '',
    sort: p.get('sort') === 'time' ? 'time' : 'duration',
    descending: p.get('dir') !== 'asc',
    page: page !== null && page > 0 ? page : 0,
  };
}

export const eventsHref = (s: Partial<EventsViewState>): string =>
  `/events?${encodeEventsView({ ...EMPTY_EVENTS_VIEW, ...s }).toString()}`;
