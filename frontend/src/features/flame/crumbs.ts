/** Which frames of a zoom path the crumbs show: a path can be 100,000 frames deep. Pure. */

/** Crumbs shown at each end of a long path; the middle becomes one count. */
export const EDGE_CRUMBS = { first: 3, last: 12 };

/** The path's indexes to show as crumbs, with null where the hidden middle goes. */
export function crumbIndexes(length: number): (number | null)[] {
  const { first, last } = EDGE_CRUMBS;
  if (length <= first + last + 1) return Array.from({ length }, (_, i) => i);
  const head = Array.from({ length: first }, (_, i) => i);
  const tail = Array.from({ length: last }, (_, i) => length - last + i);
  return [...head, null, ...tail];
}
