/**
 * The query string of the page's current route, read at the moment of a change (not from a render's
 * closure, which a quick second change would find stale). The console routes on the path, so it is
 * `location.search`; the offline bundle viewer routes in the hash (`#/flame?captures=3`, file:// has
 * no server paths) and switches this to the hash's query once, before rendering.
 */

type SearchSource = 'path' | 'hash';

let source: SearchSource = 'path';

export function routeSearchFromHash(): void {
  source = 'hash';
}

/** `?a=1&b=2` of a hash route such as `#/flame?a=1&b=2`; '' when it has none. */
export function searchOfHash(hash: string): string {
  const at = hash.indexOf('?');
  return at < 0 ? '' : hash.slice(at);
}

export function currentSearch(): string {
  return source === 'hash' ? searchOfHash(window.location.hash) : window.location.search;
}
