/**
 * Numbers of a metric in its unit, for axes and readouts. Pure.
 *
 * Times and sizes move to the unit that reads best (1,500 ms → 1.5 s, 2048 KiB → 2 MiB); other units
 * get SI prefixes (12,000 /s → 12k/s). An axis formats all of its ticks in one unit with as many
 * decimals as its step needs, so labels never mix "900 ms" with "1 s" or collapse to "1, 1, 1".
 */

interface Scale {
  /** Multiplier from the base unit (s, B, or the bare number). */
  factor: number;
  label: string;
}

interface Family {
  /** Factor from the series' unit to the family's base unit. */
  toBase: number;
  scales: readonly Scale[];
  /** Appended after the scale's label: '/s' for rates. */
  suffix: string;
  /** No space between number and label ('%', SI prefixes). */
  tight: boolean;
}

const TIME: readonly Scale[] = [
  { factor: 1e-9, label: 'ns' },
  { factor: 1e-6, label: 'µs' },
  { factor: 1e-3, label: 'ms' },
  { factor: 1, label: 's' },
  { factor: 60, label: 'min' },
  { factor: 3600, label: 'h' },
];
const TIME_UNITS: Record<string, number> = { ns: 1e-9, µs: 1e-6, us: 1e-6, ms: 1e-3, s: 1, sec: 1, min: 60, h: 3600 };

const BYTES: readonly Scale[] = [
  { factor: 1, label: 'B' },
  { factor: 1024, label: 'KiB' },
  { factor: 1024 ** 2, label: 'MiB' },
  { factor: 1024 ** 3, label: 'GiB' },
  { factor: 1024 ** 4, label: 'TiB' },
];
const BYTE_UNITS: Record<string, number> = { B: 1, bytes: 1, KiB: 1024, kB: 1024, KB: 1024, MiB: 1024 ** 2, MB: 1024 ** 2, GiB: 1024 ** 3, GB: 1024 ** 3, TiB: 1024 ** 4 };

/** Upwards only: below 1 a plain decimal ("0.004") reads better than "4m", which looks like minutes. */
const SI: readonly Scale[] = [
  { factor: 1, label: '' },
  { factor: 1e3, label: 'k' },
  { factor: 1e6, label: 'M' },
  { factor: 1e9, label: 'G' },
  { factor: 1e12, label: 'T' },
];

function family(unit: string): Family {
  const rate = unit.endsWith('/s');
  const body = rate ? unit.slice(0, -2) : unit;
  const suffix = rate ? '/s' : '';
  const time = TIME_UNITS[body];
  if (time !== undefined) return { toBase: time, scales: TIME, suffix, tight: false };
  const bytes = BYTE_UNITS[body];
  if (bytes !== undefined) return { toBase: bytes, scales: BYTES, suffix, tight: false };
  if (body === '%') return { toBase: 1, scales: [{ factor: 1, label: '%' }], suffix, tight: true };
  // Anything else: SI prefixes on the number, then the unit as written ("12k/s", "1.2k MHz").
  const tail = body ? ` ${body}` : '';
  return { toBase: 1, scales: SI.map((s) => ({ factor: s.factor, label: `${s.label}${tail}` })), suffix, tight: true };
}

/** The largest scale in which `magnitude` (in base units) is at least 1; the series' own for 0. */
function scaleFor(f: Family, magnitude: number): Scale {
  const scales = f.scales;
  const fallback = scales.find((s) => s.factor === f.toBase) ?? scales.find((s) => s.factor === 1) ?? scales[0] ?? { factor: 1, label: '' };
  if (!(magnitude > 0) || !Number.isFinite(magnitude)) return fallback;
  let chosen = scales[0] ?? fallback;
  for (const s of scales) if (magnitude >= s.factor * (1 - 1e-9)) chosen = s;
  return chosen;
}

function join(number: string, scale: Scale, f: Family): string {
  const label = `${scale.label}${f.suffix}`;
  if (!label) return number;
  return f.tight || label.startsWith('/') ? `${number}${label}` : `${number} ${label}`;
}

/** Thousands separated with commas, independent of the browser's locale. */
function grouped(v: number, decimals: number): string {
  const fixed = Math.abs(v).toFixed(decimals);
  const [int = '0', frac] = fixed.split('.');
  const sign = v < 0 && Number(fixed) !== 0 ? '-' : '';
  return sign + int.replace(/\B(?=(\d{3})+(?!\d))/g, ',') + (frac ? `.${frac}` : '');
}

/** One value, three significant digits: "1.23 ms", "4.5 GiB", "12.3k/s", "87.5%". */
export function formatMetricValue(value: number, unit: string): string {
  if (!Number.isFinite(value)) return '–';
  const f = family(unit);
  const base = value * f.toBase;
  const scale = scaleFor(f, Math.abs(base));
  const v = base / scale.factor;
  const abs = Math.abs(v);
  if (abs !== 0 && abs < 1) return join(String(Number(v.toPrecision(3))), scale, f);
  const decimals = abs === 0 || abs >= 100 ? 0 : abs >= 10 ? 1 : 2;
  return join(grouped(Number(v.toFixed(decimals)), decimals), scale, f);
}

/** The fewest decimals (up to 6) that write every value exactly: 99.5, 99.75, 100 need 2. */
function decimalsFor(values: readonly number[]): number {
  for (let d = 0; d < 6; d += 1) {
    const k = 10 ** d;
    if (values.every((v) => Math.abs(Math.round(v * k) - v * k) < 1e-6)) return d;
  }
  return 6;
}

/**
 * A formatter for an axis's ticks (given in the series' unit): one scale for all, chosen by the
 * largest tick, and decimals enough to tell neighbouring ticks apart.
 */
export function axisTickFormat(ticks: readonly number[], unit: string): (value: number) => string {
  const f = family(unit);
  const magnitude = Math.max(0, ...ticks.map((t) => Math.abs(t * f.toBase)));
  const scale = scaleFor(f, magnitude);
  const scaled = (value: number): number => (value * f.toBase) / scale.factor;
  const decimals = decimalsFor(ticks.map(scaled));
  return (value: number) => join(grouped(Number(scaled(value).toFixed(decimals)), decimals), scale, f);
}

/** Ticks for an axis this many pixels tall: about one per 45 px, at least 3. */
export const yTickCount = (innerHeight: number): number => Math.max(3, Math.min(10, Math.floor(innerHeight / 45)));

/** Left margin that fits the longest tick label at 11px type (with the rotated unit title beside it). */
export function yAxisMargin(labels: readonly string[]): number {
  const longest = Math.max(1, ...labels.map((l) => l.length));
  return Math.ceil(longest * 6.6) + 30;
}

/** An offset from a capture's start on the aligned x axis: "+0 s", "+1.5 s", "+2 min 30 s", "+250 ms". */
export function formatOffset(ms: number, spanMs: number): string {
  if (!Number.isFinite(ms)) return '–';
  const sign = ms < 0 ? '-' : '+';
  const abs = Math.abs(ms);
  if (spanMs < 2000) return `${sign}${grouped(abs, abs % 1 === 0 ? 0 : 1)} ms`;
  const s = abs / 1000;
  if (spanMs < 120_000) return `${sign}${grouped(s, s % 1 === 0 ? 0 : 1)} s`;
  const totalSeconds = Math.round(s);
  const h = Math.floor(totalSeconds / 3600);
  const m = Math.floor((totalSeconds % 3600) / 60);
  const sec = totalSeconds % 60;
  if (h > 0) return `${sign}${h} h ${String(m).padStart(2, '0')} min`;
  return sec === 0 ? `${sign}${m} min` : `${sign}${m} min ${sec} s`;
}

const OFFSET_STEPS_MS = [
  1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000, 15_000, 30_000, 60_000, 120_000, 300_000, 600_000, 900_000, 1_800_000,
  3_600_000, 7_200_000, 10_800_000, 21_600_000, 43_200_000, 86_400_000,
];

/** Tick positions (ms) on an offset axis from 0 to `spanMs`: steps a person counts in (5 s, 30 s, 5 min…). */
export function offsetTicks(spanMs: number, target: number): number[] {
  if (!(spanMs > 0)) return [0];
  const want = Math.max(1, target);
  const step = OFFSET_STEPS_MS.find((s) => spanMs / s <= want) ?? 86_400_000 * Math.ceil(spanMs / 86_400_000 / want);
  const ticks: number[] = [];
  for (let t = 0; t <= spanMs + 1e-9; t += step) ticks.push(t);
  return ticks;
}
