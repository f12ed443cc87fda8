/** Frame colours by kind: hue says what kind of code, a small name-hashed lightness shift tells neighbours apart. */
import type { FrameKind } from '../../api/types';

interface Hsl {
  h: number;
  s: number;
  l: number;
}

export const KIND_BASE: Record<FrameKind, Hsl> = {
  root: { h: 220, s: 10, l: 58 },
  process: { h: 265, s: 45, l: 68 },
  user: { h: 12, s: 72, l: 64 },
  kernel: { h: 36, s: 85, l: 58 },
  jit: { h: 130, s: 45, l: 58 },
  inline: { h: 188, s: 55, l: 58 },
  unknown: { h: 220, s: 8, l: 62 },
  other: { h: 220, s: 6, l: 46 },
  deeper: { h: 220, s: 6, l: 34 },
};

export const KIND_LABEL: Record<FrameKind, string> = {
  root: 'all',
  process: 'process',
  user: 'user',
  kernel: 'kernel',
  jit: 'JIT',
  inline: 'inlined',
  unknown: 'unknown',
  other: '(other): pruned',
  deeper: '(deeper): past the depth budget',
};

/** Kinds shown in the legend, in reading order. */
export const LEGEND_KINDS: FrameKind[] = ['process', 'user', 'kernel', 'jit', 'inline', 'unknown', 'other', 'deeper'];

export const HIGHLIGHT_COLOR = '#ff3fd2';

/** FNV-1a, enough to spread names over a few shades. */
export function hashName(name: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i += 1) {
    h ^= name.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export function kindColor(kind: FrameKind): string {
  const { h, s, l } = KIND_BASE[kind];
  return `hsl(${h} ${s}% ${l}%)`;
}

export function frameColor(kind: FrameKind, name: string, highlighted: boolean): string {
  if (highlighted) return HIGHLIGHT_COLOR;
  const { h, s, l } = KIND_BASE[kind];
  const hash = hashName(name);
  const dl = (hash % 9) - 4; // -4..+4 lightness
  const dh = ((hash >>> 8) % 7) - 3; // -3..+3 hue
  return `hsl(${h + dh} ${s}% ${l + dl}%)`;
}
