import { describe, expect, it } from 'vitest';
import { placeTip, TIP_GAP, TIP_MARGIN, type Point, type Size, type TipPlace } from './tipPlacement';

const VIEWPORT: Size = { width: 1600, height: 1000 };

/** The readout's box as placed, its height shrunk when the placement says so. */
function box(place: TipPlace, tip: Size) {
  const height = place.maxHeight === null ? tip.height : Math.min(tip.height, place.maxHeight);
  return { left: place.left, top: place.top, right: place.left + tip.width, bottom: place.top + height };
}

function expectInsideAndClear(pointer: Point, tip: Size, viewport: Size = VIEWPORT) {
  const b = box(placeTip(pointer, tip, viewport), tip);
  expect(b.left).toBeGreaterThanOrEqual(TIP_MARGIN);
  expect(b.top).toBeGreaterThanOrEqual(TIP_MARGIN);
  expect(b.right).toBeLessThanOrEqual(viewport.width - TIP_MARGIN);
  expect(b.bottom).toBeLessThanOrEqual(viewport.height - TIP_MARGIN);
  const covers = pointer.x >= b.left && pointer.x <= b.right && pointer.y >= b.top && pointer.y <= b.bottom;
  expect(covers).toBe(false);
}

describe('hover readout placement', () => {
  it('goes right of the pointer, its top level with it, when there is room', () => {
    expect(placeTip({ x: 300, y: 200 }, { width: 400, height: 300 }, VIEWPORT)).toEqual({ left: 300 + TIP_GAP, top: 200, maxHeight: null });
  });

  it('flips to the left of the pointer near the right edge', () => {
    expect(placeTip({ x: 1400, y: 200 }, { width: 400, height: 300 }, VIEWPORT)).toEqual({ left: 1400 - TIP_GAP - 400, top: 200, maxHeight: null });
  });

  it('ends just above the pointer near the bottom of the viewport instead of running off it', () => {
    expect(placeTip({ x: 300, y: 950 }, { width: 400, height: 300 }, VIEWPORT)).toEqual({ left: 300 + TIP_GAP, top: 650, maxHeight: null });
  });

  it('is centred on the pointer when taller than either half, and shrunk when taller than the viewport', () => {
    expect(placeTip({ x: 300, y: 500 }, { width: 400, height: 900 }, VIEWPORT)).toEqual({ left: 300 + TIP_GAP, top: 50, maxHeight: null });
    const tall = placeTip({ x: 300, y: 500 }, { width: 400, height: 5000 }, VIEWPORT);
    expect(tall).toEqual({ left: 300 + TIP_GAP, top: TIP_MARGIN, maxHeight: 1000 - 2 * TIP_MARGIN });
  });

  it('goes under or over the pointer when too wide for either side', () => {
    const narrow: Size = { width: 900, height: 700 };
    expect(placeTip({ x: 450, y: 100 }, { width: 760, height: 300 }, narrow)).toEqual({ left: 450 - 380, top: 100 + TIP_GAP, maxHeight: null });
    expect(placeTip({ x: 450, y: 600 }, { width: 760, height: 300 }, narrow)).toEqual({ left: 450 - 380, top: 600 - TIP_GAP - 300, maxHeight: null });
    // Room for neither: the roomier side, shrunk to it.
    expect(placeTip({ x: 450, y: 200 }, { width: 760, height: 650 }, narrow)).toEqual({
      left: 70,
      top: 200 + TIP_GAP,
      maxHeight: 700 - TIP_MARGIN - 200 - TIP_GAP,
    });
  });

  it('stays inside the viewport and off the pointer wherever the pointer is', () => {
    const tips: Size[] = [
      { width: 420, height: 240 },
      { width: 760, height: 640 },
      { width: 760, height: 2400 },
    ];
    for (const tip of tips) {
      for (let x = 0; x <= VIEWPORT.width; x += 50) {
        for (let y = 0; y <= VIEWPORT.height; y += 50) expectInsideAndClear({ x, y }, tip);
      }
    }
    for (let x = 0; x <= 900; x += 30) for (let y = 0; y <= 700; y += 35) expectInsideAndClear({ x, y }, { width: 760, height: 650 }, { width: 900, height: 700 });
  });
});
