import './ProgressBar.css';

/** A thin progress bar; `value` is 0..1, or null for "working, amount unknown". */
export function ProgressBar({ value, label, tone = 'accent' }: { value: number | null; label: string; tone?: 'accent' | 'ok' | 'warn' | 'bad' }) {
  const pct = value === null ? null : Math.round(Math.min(1, Math.max(0, value)) * 100);
  return (
    <div
      className={`progress progress--${tone}${pct === null ? ' progress--indeterminate' : ''}`}
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={pct ?? undefined}
    >
      <div className="progress__fill" style={{ width: pct === null ? undefined : `${pct}%` }} />
    </div>
  );
}
