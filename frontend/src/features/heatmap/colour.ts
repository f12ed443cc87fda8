/**
 * The heatmap's sequential colour scale: empty cells stay the background, the rest run from dim
 * purple to bright yellow (inferno, readable on the dark theme and by most colour-blind people).
 * Square-root scaled: one enormous cell (a long fsync) would otherwise leave every other cell black,
 * and the legend prints real values so the scale never misleads.
 */
import { interpolateInferno } from 'd3';

/** Where on the inferno ramp the smallest non-zero value sits: far enough from black to see. */
const FLOOR = 0.16;

/** Position 0..1 on the ramp for `value` out of `max`; 0 for empty cells. */
export function heatLevel(value: number, max: number): number {
  if (!(value > 0) || !(max > 0)) return 0;
  return FLOOR + (1 - FLOOR) * Math.sqrt(Math.min(value, max) / max);
}

/** The fill for a cell, or null for an empty one (drawn as background). */
export function heatColour(value: number, max: number): string | null {
  return value > 0 && max > 0 ? interpolateInferno(heatLevel(value, max)) : null;
}

export interface LegendStop {
  value: number;
  colour: string;
}

/** `count` evenly spaced values from the smallest visible to the max, with their colours. */
export function legendStops(max: number, count = 5): LegendStop[] {
  if (!(max > 0)) return [];
  const stops: LegendStop[] = [];
  for (let i = 1; i <= count; i += 1) {
    // Spaced on the square-root scale, so the swatches look evenly spaced too.
    const value = max * (i / count) ** 2;
    stops.push({ value, colour: interpolateInferno(heatLevel(value, max)) });
  }
  return stops;
}

/** A CSS gradient of the whole ramp, for the legend bar. */
export function legendGradient(steps = 8): string {
  const parts: string[] = [];
  for (let i = 0; i <= steps; i += 1) parts.push(interpolateInferno(FLOOR + ((1 - FLOOR) * i) / steps));
  return `linear-gradient(to right, ${parts.join(', ')})`;
}
