import { formatLocalTime, formatRelative } from '../units';

/** A UTC timestamp shown in local time, with the UTC value on hover. */
export function Time({ iso, relative = false }: { iso: string | null; relative?: boolean }) {
  if (!iso) return <span className="muted">–</span>;
  return (
    <time dateTime={iso} title={`${iso} (UTC)`} className="nowrap">
      {formatLocalTime(iso)}
      {relative ? <span className="muted"> · {formatRelative(iso)}</span> : null}
    </time>
  );
}
