import { interpolateInferno } from 'd3';
import { describe, expect, it } from 'vitest';
import { heatColour, heatLevel, legendGradient, legendStops } from './colour';

describe('sequential colour scale', () => {
  it('leaves empty cells uncoloured and gives the max the brightest colour', () => {
    expect(heatColour(0, 10)).toBeNull();
    expect(heatColour(5, 0)).toBeNull();
    expect(heatColour(10, 10)).toBe(interpolateInferno(1));
  });

  it('rises with the value and keeps the smallest value visible', () => {
    const levels = [1, 2, 5, 9, 10].map((v) => heatLevel(v, 10));
    expect(levels).toEqual([...levels].sort((a, b) => a - b));
    expect(new Set(levels).size).toBe(levels.length);
    expect(heatLevel(1, 1_000_000)).toBeGreaterThan(0.15);
    expect(heatLevel(20, 10)).toBe(1); // values past the max are clamped
  });

  it('has a legend that ends at the max, with real values', () => {
    const stops = legendStops(400, 4);
    expect(stops.map((s) => s.value)).toEqual([25, 100, 225, 400]);
    expect(stops.at(-1)?.colour).toBe(interpolateInferno(1));
    expect(legendStops(0)).toEqual([]);
    expect(legendGradient(2)).toBe(`linear-gradient(to right, ${interpolateInferno(0.16)}, ${interpolateInferno(0.58)}, ${interpolateInferno(1)})`);
  });
});
