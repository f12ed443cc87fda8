/**
 * The key under which a bundle stores the answer to one GET: the path, then `?` and the decoded
 * `k=v` pairs sorted by key then value (plain code-unit order), joined with `&`. Decoded and sorted,
 * so the exporter (Python, `export/bundle`) and this viewer agree however each encodes a comma or
 * orders its parameters: `/api/flame?captures=3%2C4&max_nodes=50000` -> `/api/flame?captures=3,4&max_nodes=50000`.
 */

const byCodeUnits = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** `url`: a path with its query (`/api/x?a=1`), or an absolute URL, whose origin is dropped. */
export function bundleKey(url: string): string {
  const parsed = new URL(url, 'http://bundle.invalid');
  const pairs = [...parsed.searchParams.entries()].sort(([ka, va], [kb, vb]) => byCodeUnits(ka, kb) || byCodeUnits(va, vb));
  const path = decodeURIComponent(parsed.pathname);
  if (pairs.length === 0) return path;
  return `${path}?${pairs.map(([k, v]) => `${k}=${v}`).join('&')}`;
}
