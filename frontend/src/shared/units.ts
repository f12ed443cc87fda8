/** Formatting of sizes, durations, counts and percentages. Pure, locale-independent output. */

const BYTE_UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB'] as const;

export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '–';
  let v = bytes;
  let i = 0;
  while (v >= 1024 && i < BYTE_UNITS.length - 1) {
    v /= 1024;
    i += 1;
  }
  const unit = BYTE_UNITS[i] ?? 'B';
  if (i === 0) return `${v} ${unit}`;
  return `${v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2)} ${unit}`;
}

/** Thousands separated by a thin space-free comma, independent of the browser's locale. */
export function formatCount(n: number): string {
  if (!Number.isFinite(n)) return '–';
  const sign = n < 0 ? '-' : '';
  const [int = '0', frac] = Math.abs(n).toString().split('.');
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return sign + grouped + (frac ? `.${frac}` : '');
}

/** A fraction (0..1) as a percentage with enough digits to tell small frames apart. */
export function formatPercent(fraction: number): string {
  if (!Number.isFinite(fraction)) return '–';
  const p = fraction * 100;
  if (p === 0) return '0%';
  if (p >= 99.995 && p <= 100) return '100%';
  const abs = Math.abs(p);
  if (abs >= 10) return `${p.toFixed(1)}%`;
  if (abs >= 0.1) return `${p.toFixed(2)}%`;
  if (abs >= 0.001) return `${p.toFixed(3)}%`;
  return '<0.001%';
}

/** A share of a whole, guarding against a zero whole. */
export function share(part: number, whole: number): number {
  return whole > 0 ? part / whole : 0;
}

export function formatDurationNs(ns: number): string {
  if (!Number.isFinite(ns)) return '–';
  const abs = Math.abs(ns);
  if (abs < 1e3) return `${trim(ns)} ns`;
  if (abs < 1e6) return `${trim(ns / 1e3)} µs`;
  if (abs < 1e9) return `${trim(ns / 1e6)} ms`;
  return formatDurationSeconds(ns / 1e9);
}

export function formatDurationSeconds(s: number): string {
  if (!Number.isFinite(s)) return '–';
  const abs = Math.abs(s);
  if (abs < 1) return formatDurationNs(s * 1e9);
  if (abs < 60) return `${trim(s)} s`;
  const sign = s < 0 ? '-' : '';
  let rest = Math.round(abs);
  const h = Math.floor(rest / 3600);
  rest -= h * 3600;
  const m = Math.floor(rest / 60);
  const sec = rest - m * 60;
  if (h > 0) return `${sign}${h} h ${m} min`;
  return `${sign}${m} min ${sec} s`;
}

/** Three significant digits at most, no trailing zeros. */
function trim(v: number): string {
  const abs = Math.abs(v);
  const digits = abs >= 100 ? 0 : abs >= 10 ? 1 : 2;
  return String(Number(v.toFixed(digits)));
}

/** A flame-graph weight in its unit: "1,234 samples", "12.3 ms". */
export function formatValue(value: number, unit: string): string {
  switch (unit) {
    case 'ns':
      return formatDurationNs(value);
    case 'us':
      return formatDurationNs(value * 1e3);
    case 'ms':
      return formatDurationNs(value * 1e6);
    case 's':
      return formatDurationSeconds(value);
    case 'bytes':
      return formatBytes(value);
    case 'samples':
      return `${formatCount(value)} ${value === 1 ? 'sample' : 'samples'}`;
    case 'events':
      return `${formatCount(value)} ${value === 1 ? 'event' : 'events'}`;
    default:
      return `${formatCount(value)} ${unit}`;
  }
}

/** Seconds between two ISO timestamps, or null if either is missing or invalid. */
export function spanSeconds(startIso: string | null, endIso: string | null): number | null {
  if (!startIso || !endIso) return null;
  const a = Date.parse(startIso);
  const b = Date.parse(endIso);
  if (Number.isNaN(a) || Number.isNaN(b)) return null;
  return (b - a) / 1000;
}

const pad = (n: number, w = 2): string => String(n).padStart(w, '0');

/** "2026-11-21 23:29:05" in the browser's time zone. */
export function formatLocalTime(iso: string | null): string {
  if (!iso) return '–';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** "3 h ago", "in 5 min"; `now` is injectable for tests. */
export function formatRelative(iso: string, now: number = Date.now()): string {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return '';
  const diff = (now - t) / 1000;
  const abs = Math.abs(diff);
  let text: string;
  if (abs < 45) return 'just now';
  else if (abs < 3600) text = `${Math.round(abs / 60)} min`;
  else if (abs < 86400) text = `${Math.round(abs / 3600)} h`;
  else text = `${Math.round(abs / 86400)} d`;
  return diff >= 0 ? `${text} ago` : `in ${text}`;
}
