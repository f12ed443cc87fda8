/** Incident list view state (search, sort) ⇄ URL, and the pure filter/sort. */
import type { Incident } from '../../api/types';

export const SORT_KEYS = ['title', 'severity', 'started', 'captures'] as const;
export type SortKey = (typeof SORT_KEYS)[number];
export type SortDir = 'asc' | 'desc';

export interface ListView {
  q: string;
  sort: SortKey;
  dir: SortDir;
}

export const DEFAULT_LIST_VIEW: ListView = { q: '', sort: 'started', dir: 'desc' };

export function decodeListView(p: URLSearchParams): ListView {
  const sort = p.get('sort');
  const dir = p.get('dir');
  return {
    q: p.get('q') ?? '',
    sort: (SORT_KEYS as readonly string[]).includes(sort ?? '') ? (sort as SortKey) : DEFAULT_LIST_VIEW.sort,
    dir: dir === 'asc' || dir === 'desc' ? dir : DEFAULT_LIST_VIEW.dir,
  };
}

export function encodeListView(v: ListView): URLSearchParams {
  const p = new URLSearchParams();
  if (v.q) p.set('q', v.q);
  if (v.sort !== DEFAULT_LIST_VIEW.sort || v.dir !== DEFAULT_LIST_VIEW.dir) {
    p.set('sort', v.sort);
    p.set('dir', v.dir);
  }
  return p;
}

/** Clicking a header: a new column starts in its natural direction, the same column flips. */
export function nextSort(current: ListView, key: SortKey): Pick<ListView, 'sort' | 'dir'> {
  if (current.sort === key) return { sort: key, dir: current.dir === 'asc' ? 'desc' : 'asc' };
  return { sort: key, dir: key === 'title' || key === 'severity' ? 'asc' : 'desc' };
}

/** Every whitespace-separated word must appear in the title, summary, severity or id. */
export function filterIncidents(incidents: readonly Incident[], q: string): Incident[] {
  const words = q.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...incidents];
  return incidents.filter((i) => {
    const hay = `${i.title}\n${i.summary}\n${i.severity}\n#${i.id}`.toLowerCase();
    return words.every((w) => hay.includes(w));
  });
}

function compare(a: Incident, b: Incident, key: SortKey): number {
  switch (key) {
    case 'title':
      return a.title.localeCompare(b.title, undefined, { sensitivity: 'base', numeric: true });
    case 'severity':
      return a.severity.localeCompare(b.severity);
    case 'started':
      return Date.parse(a.started_at) - Date.parse(b.started_at);
    case 'captures':
      return a.capture_count - b.capture_count;
  }
}

/** Stable sort, ties broken by newest id first. */
export function sortIncidents(incidents: readonly Incident[], key: SortKey, dir: SortDir): Incident[] {
  const sign = dir === 'asc' ? 1 : -1;
  return [...incidents].sort((a, b) => sign * compare(a, b, key) || b.id - a.id);
}
