/** Conversions between `<input type="datetime-local">` values (browser-local wall time) and UTC ISO. */

const pad = (n: number): string => String(n).padStart(2, '0');

const LOCAL_RE = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?$/;

/** "2026-03-08T02:30" read as the browser's local time → "2026-03-08T07:30:00.000Z"; null if invalid. */
export function localInputToUtcIso(value: string): string | null {
  const m = LOCAL_RE.exec(value.trim());
  if (!m) return null;
  const [, y, mo, d, h, mi, s, ms] = m;
  const date = new Date(
    Number(y),
    Number(mo) - 1,
    Number(d),
    Number(h),
    Number(mi),
    Number(s ?? 0),
    Number((ms ?? '0').padEnd(3, '0')),
  );
  if (Number.isNaN(date.getTime())) return null;
  if (date.getMonth() !== Number(mo) - 1 || date.getDate() !== Number(d)) return null;
  return date.toISOString();
}

/** A Date as the value a datetime-local input expects, in the browser's time zone (minute precision). */
export function toLocalInputValue(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** Offset seconds from a capture start to an absolute UTC ISO time. */
export function offsetToIso(startIso: string, offsetSeconds: number): string {
  return new Date(Date.parse(startIso) + offsetSeconds * 1000).toISOString();
}
