/**
 * The heatmap's sequential colour scale: the more a cell holds, the darker and stronger its colour,
 * from pale yellow for the least to deep red for the most (ColorBrewer's YlOrRd, the ramp of the
 * sub-second offset heatmaps people know from FlameScope). Empty cells stay the background.
 *
 * Spaced on the square root between the smallest and the largest non-empty cell: one enormous cell
 * (a long fsync) would otherwise leave every other cell the palest yellow. The legend prints the
 * real values at its ends and ticks, so the spacing never misleads.
 */
import { interpolateYlOrRd, ticks } from 'd3';
import { formatCount, formatDurationNs } from '../../shared/units';
import { formatHeat } from './grid';

/**
 * Where the smallest non-empty value sits on the ramp: a yellow that still shows on the light theme's
 * background without glaring on the dark one's.
 */
const PALEST = 0.28;
/** Where the largest sits: short of the ramp's end, whose near-black red melts into the dark theme. */
const DARKEST = 0.94;

/** The values the colours span: the smallest and the largest non-empty cell. */
export interface HeatScale {
  min: number;
  max: number;
}

/** The scale of a grid of cell values (`values[column][row]`); empty when every cell is. */
export function heatScale(values: readonly (readonly number[])[], max: number): HeatScale {
  let min = Infinity;
  for (const column of values) for (const v of column) if (v > 0 && v < min) min = v;
  return Number.isFinite(min) && max > 0 ? { min: Math.min(min, max), max } : { min: 0, max: 0 };
}

/** Where `value` lies between the scale's ends, 0..1 on the square root (clamped). */
export function scalePosition(value: number, s: HeatScale): number {
  const lo = Math.sqrt(s.min);
  const hi = Math.sqrt(s.max);
  if (!(hi > lo)) return 1;
  return Math.min(1, Math.max(0, (Math.sqrt(value) - lo) / (hi - lo)));
}

/** Position 0..1 on the ramp for `value`; 0 for empty cells. */
export function heatLevel(value: number, s: HeatScale): number {
  if (!(value > 0) || !(s.max > 0)) return 0;
  return PALEST + (DARKEST - PALEST) * scalePosition(value, s);
}

/** The fill for a cell, or null for an empty one (drawn as background). */
export function heatColour(value: number, s: HeatScale): string | null {
  return value > 0 && s.max > 0 ? interpolateYlOrRd(heatLevel(value, s)) : null;
}

/** A CSS gradient of the ramp from the smallest to the largest value, for the legend bar. */
export function legendGradient(steps = 8): string {
  const parts: string[] = [];
  for (let i = 0; i <= steps; i += 1) parts.push(interpolateYlOrRd(PALEST + ((DARKEST - PALEST) * i) / steps));
  return `linear-gradient(to right, ${parts.join(', ')})`;
}

export interface LegendTick {
  value: number;
  /** Where along the legend bar, 0..1. */
  at: number;
  label: string;
}

/** The legend bar's width, and roughly what a character of its labels takes, in CSS pixels. */
export const LEGEND_BAR_PX = 360;
const CHAR_PX = 7;
const LABEL_GAP_PX = 10;

/**
 * The legend's numbers: the smallest and the largest value at the bar's ends, in the heatmap's unit
 * ("1 sample", "48 ms"), and round values between them where their labels have room (the first is
 * left-aligned under the bar's start, the last right-aligned under its end, the others centred).
 */
export function legendTicks(s: HeatScale, unit: string, count = 4): LegendTick[] {
  if (!(s.max > 0)) return [];
  const first: LegendTick = { value: s.min, at: 0, label: formatHeat(s.min, unit) };
  const last: LegendTick = { value: s.max, at: 1, label: formatHeat(s.max, unit) };
  if (!(s.max > s.min)) return [last];
  const width = (label: string) => (label.length * CHAR_PX + LABEL_GAP_PX) / LEGEND_BAR_PX;
  const whole = unit !== 'ns';
  const inner: LegendTick[] = [];
  let freeFrom = width(first.label);
  const freeTo = 1 - width(last.label);
  for (const value of ticks(s.min, s.max, count)) {
    if (value <= s.min || value >= s.max || (whole && !Number.isInteger(value))) continue;
    const at = scalePosition(value, s);
    const label = unit === 'ns' ? formatDurationNs(value) : formatCount(value);
    const half = width(label) / 2;
    if (at - half < freeFrom || at + half > freeTo) continue;
    inner.push({ value, at, label });
    freeFrom = at + half;
  }
  return [first, ...inner, last];
}
