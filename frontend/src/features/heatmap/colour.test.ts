import { interpolateYlOrRd, rgb } from 'd3';
import { describe, expect, it } from 'vitest';
import { heatColour, heatLevel, heatScale, legendGradient, legendTicks, scalePosition } from './colour';

/** WCAG relative luminance of a CSS colour: 0 for black, 1 for white. */
function luminance(colour: string): number {
  const c = rgb(colour);
  const channel = (v: number) => {
    const s = v / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(c.r) + 0.7152 * channel(c.g) + 0.0722 * channel(c.b);
}

describe('sequential colour scale', () => {
  const scale = { min: 1, max: 20 };

  it('leaves empty cells uncoloured', () => {
    expect(heatColour(0, scale)).toBeNull();
    expect(heatColour(5, { min: 0, max: 0 })).toBeNull();
    expect(heatLevel(0, scale)).toBe(0);
  });

  it('gets darker with every extra sample: the fullest cell is the darkest', () => {
    const colours = Array.from({ length: 20 }, (_, i) => heatColour(i + 1, scale) ?? '');
    const lum = colours.map(luminance);
    for (let i = 1; i < lum.length; i += 1) expect(lum[i], `${i + 1} samples against ${i}`).toBeLessThan(lum[i - 1] ?? 0);
    // Pale at the bottom, deep at the top: a clear step from one end to the other.
    expect(lum[0]).toBeGreaterThan(0.6);
    expect(lum.at(-1)).toBeLessThan(0.12);
    expect(colours.at(-1)).toBe(interpolateYlOrRd(0.94));
  });

  it('spaces values on the square root between the smallest and the largest cell', () => {
    expect(scalePosition(1, scale)).toBe(0);
    expect(scalePosition(20, scale)).toBe(1);
    expect(scalePosition(40, scale)).toBe(1); // past the max: clamped
    expect(scalePosition(5, { min: 0, max: 20 })).toBeCloseTo(0.5);
    expect(scalePosition(3, { min: 3, max: 3 })).toBe(1); // every cell alike: all the darkest
  });

  it('reads its ends off the cells, ignoring empty ones', () => {
    expect(heatScale([[0, 3, 0], [7, 2]], 7)).toEqual({ min: 2, max: 7 });
    expect(heatScale([[0], []], 0)).toEqual({ min: 0, max: 0 });
  });

  it('has a gradient from the palest to the darkest colour', () => {
    expect(legendGradient(2)).toBe(`linear-gradient(to right, ${interpolateYlOrRd(0.28)}, ${interpolateYlOrRd(0.61)}, ${interpolateYlOrRd(0.94)})`);
  });
});

describe('legend ticks', () => {
  it('prints sample counts at the ends, whole round counts between', () => {
    const t = legendTicks({ min: 1, max: 20 }, 'samples');
    // 15 would print into "20 samples", right-aligned under the bar's end.
    expect(t.map((x) => x.label)).toEqual(['1 sample', '5', '10', '20 samples']);
    expect(t[0]?.at).toBe(0);
    expect(t.at(-1)?.at).toBe(1);
    const positions = t.map((x) => x.at);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
  });

  it('never prints a fraction of a sample', () => {
    expect(legendTicks({ min: 1, max: 3 }, 'samples').map((x) => x.label)).toEqual(['1 sample', '2', '3 samples']);
  });

  it('prints durations in their unit', () => {
    const t = legendTicks({ min: 1_500_000, max: 48_000_000 }, 'ns');
    expect(t.map((x) => x.label)).toEqual(['1.5 ms', '10 ms', '20 ms', '30 ms', '48 ms']);
  });

  it('keeps labels apart on a wide range', () => {
    const t = legendTicks({ min: 1, max: 1_234_567 }, 'samples', 10);
    expect(t[0]?.label).toBe('1 sample');
    expect(t.at(-1)?.label).toBe('1,234,567 samples');
    // Centred inner labels of about 7 px a character on a 360 px bar never meet.
    for (let i = 2; i < t.length - 1; i += 1) {
      const gap = ((t[i]?.at ?? 0) - (t[i - 1]?.at ?? 0)) * 360;
      expect(gap).toBeGreaterThan(((t[i]?.label.length ?? 0) + (t[i - 1]?.label.length ?? 0)) * 3.5);
    }
  });

  it('has one number when every cell holds the same', () => {
    expect(legendTicks({ min: 4, max: 4 }, 'calls').map((x) => x.label)).toEqual(['4 calls']);
    expect(legendTicks({ min: 0, max: 0 }, 'samples')).toEqual([]);
  });
});
