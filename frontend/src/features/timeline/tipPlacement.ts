/**
 * Where the hover readout goes (pure): beside the pointer, inside the viewport, never over the
 * pointer itself. It reads every track at the pointer's time, so it may sit at any height; what it
 * must not do is hide the point being read, nor run off the bottom of the window when the pointer
 * is on the last track. All values are CSS pixels in viewport coordinates (position: fixed).
 */

export interface Point {
  x: number;
  y: number;
}

export interface Size {
  width: number;
  height: number;
}

export interface TipPlace {
  left: number;
  top: number;
  /** A height to shrink to when no placement has room for the whole readout; null when one has. */
  maxHeight: number | null;
}

/** Between the pointer and the readout's nearest edge. */
export const TIP_GAP = 14;
/** Kept free at the viewport's edges. */
export const TIP_MARGIN = 8;

const clamp = (v: number, lo: number, hi: number): number => Math.max(lo, Math.min(v, hi));

/**
 * Right of the pointer, or left when the right has no room; its top level with the pointer, flipped
 * to end just above it near the bottom of the viewport, and clamped to the viewport when it is
 * taller than either half. When neither side is wide enough, below or above the pointer instead
 * (whichever has room, else the roomier one, shrunk to fit).
 */
export function placeTip(pointer: Point, tip: Size, viewport: Size): TipPlace {
  const maxLeft = viewport.width - TIP_MARGIN - tip.width;
  const maxTop = viewport.height - TIP_MARGIN - tip.height;
  const right = pointer.x + TIP_GAP;
  const left = pointer.x - TIP_GAP - tip.width;
  const side = right <= maxLeft ? right : left >= TIP_MARGIN ? left : null;
  if (side !== null) {
    const below = Math.max(pointer.y, TIP_MARGIN);
    const above = Math.min(pointer.y, viewport.height - TIP_MARGIN) - tip.height;
    const top = below <= maxTop ? below : above >= TIP_MARGIN ? above : clamp(pointer.y - tip.height / 2, TIP_MARGIN, Math.max(TIP_MARGIN, maxTop));
    const fits = tip.height <= viewport.height - 2 * TIP_MARGIN;
    return { left: side, top, maxHeight: fits ? null : viewport.height - 2 * TIP_MARGIN };
  }
  // Too wide for either side: under or over the pointer, the gap keeping it clear.
  const x = clamp(pointer.x - tip.width / 2, TIP_MARGIN, Math.max(TIP_MARGIN, maxLeft));
  const roomBelow = viewport.height - TIP_MARGIN - (pointer.y + TIP_GAP);
  const roomAbove = pointer.y - TIP_GAP - TIP_MARGIN;
  if (tip.height <= roomBelow) return { left: x, top: pointer.y + TIP_GAP, maxHeight: null };
  if (tip.height <= roomAbove) return { left: x, top: pointer.y - TIP_GAP - tip.height, maxHeight: null };
  if (roomBelow >= roomAbove) return { left: x, top: pointer.y + TIP_GAP, maxHeight: Math.max(0, roomBelow) };
  const height = Math.max(0, roomAbove);
  return { left: x, top: pointer.y - TIP_GAP - height, maxHeight: height };
}
