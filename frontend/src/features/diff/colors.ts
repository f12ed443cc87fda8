/**
 * Diff colours: red grew, blue shrank, grey unchanged; the stronger the colour, the larger the
 * change (`delta`, normalised to B's total unless the view compares raw weights). Frames only in
 * the drawn side (new in B, or gone from A in the "A" view) are fully saturated and outlined.
 *
 * Not d3-flame-graph's `differentialColorMapper`: it scales each frame's delta by that frame's own
 * value, so a tiny frame that doubled looks like the biggest change of the profile; here intensity
 * is relative to the largest change shown.
 */
import type { DiffNode } from './api';

export interface Hsl {
  h: number;
  s: number;
  l: number;
}

export const NEUTRAL: Hsl = { h: 220, s: 8, l: 60 };
export const GREW: Hsl = { h: 2, s: 78, l: 60 };
export const SHRANK: Hsl = { h: 214, s: 82, l: 62 };
/** Frames only in B: the red, fully saturated (and outlined by the chart). */
export const ONLY_B: Hsl = { h: 350, s: 95, l: 58 };
/** Frames only in A, in the A view. */
export const ONLY_A: Hsl = { h: 205, s: 95, l: 56 };
export const OTHER: Hsl = { h: 220, s: 6, l: 46 };
export const OUTLINE = 'rgb(255, 216, 77)';

export const hslCss = ({ h, s, l }: Hsl): string => `hsl(${h} ${s}% ${l}%)`;

const mix = (from: Hsl, to: Hsl, t: number): Hsl => ({
  h: to.h,
  s: Math.round(from.s + (to.s - from.s) * t),
  l: Math.round(from.l + (to.l - from.l) * t),
});

/** "(other)" and "(deeper)" stand for many frames: grey, and no measure of the largest change. */
const folded = (node: Pick<DiffNode, 'kind'>): boolean => node.kind === 'other' || node.kind === 'deeper';

/** Which side a frame lives on alone, if any. */
export function onlyIn(node: Pick<DiffNode, 'a' | 'b'>): 'a' | 'b' | null {
  if (node.a === 0 && node.b > 0) return 'b';
  if (node.b === 0 && node.a > 0) return 'a';
  return null;
}

/**
 * The largest |delta| among the frames below the root (the root's delta is the difference of the
 * totals, which the normalisation zeroes). Colour intensity is relative to it.
 */
export function largestChange(root: DiffNode): number {
  let largest = 0;
  const stack: DiffNode[] = [...root.children];
  for (let n = stack.pop(); n; n = stack.pop()) {
    if (!folded(n)) largest = Math.max(largest, Math.abs(n.delta));
    for (const c of n.children) stack.push(c);
  }
  return largest;
}

/**
 * A frame's colour in the view of `side`. Intensity grows with the square root of the change's
 * size, so changes a tenth of the largest still show.
 */
export function diffHsl(node: DiffNode, side: 'a' | 'b', largest: number): Hsl {
  if (folded(node)) return OTHER;
  if (node.kind === 'root') return NEUTRAL;
  const only = onlyIn(node);
  if (only === 'b' && side === 'b') return ONLY_B;
  if (only === 'a' && side === 'a') return ONLY_A;
  if (node.delta === 0 || largest <= 0) return NEUTRAL;
  const t = Math.sqrt(Math.min(1, Math.abs(node.delta) / largest));
  return mix(NEUTRAL, node.delta > 0 ? GREW : SHRANK, t);
}

export const diffColor = (node: DiffNode, side: 'a' | 'b', largest: number): string => hslCss(diffHsl(node, side, largest));

/** Frames drawn outlined: only on the side being drawn. */
export const outlined = (node: DiffNode, side: 'a' | 'b'): boolean => !folded(node) && onlyIn(node) === side;
