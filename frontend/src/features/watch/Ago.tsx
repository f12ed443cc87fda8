import { formatLocalTime, formatRelative } from '../../shared/units';

/** "3 min ago", with the local and UTC times on hover: a table of recent events reads by age. */
export function Ago({ iso, now }: { iso: string | null; now: number }) {
  if (!iso) return <span className="muted">–</span>;
  return (
    <time dateTime={iso} title={`${formatLocalTime(iso)} (${iso} UTC)`} className="nowrap">
      {formatRelative(iso, now)}
    </time>
  );
}
