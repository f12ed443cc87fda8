import { formatDurationNs } from '../../shared/units';
import type { Segment } from './api';
import { STATE_COLORS, STATE_LABELS } from './threadsView';

const HEIGHT = 22;

/** A thread's state over time (a swimlane): one rectangle per segment on a shared time scale. */
export function StateStrip({ segments, fromUs, toUs }: { segments: Segment[]; fromUs: number; toUs: number }) {
  const span = Math.max(1, toUs - fromUs);
  const x = (us: number) => ((us - fromUs) / span) * 1000;
  return (
    <svg className="state-strip" viewBox={`0 0 1000 ${HEIGHT}`} preserveAspectRatio="none" role="img" aria-label="Thread state over time" data-testid="state-strip">
      {segments.map((s) => (
        <rect key={`${s.startUs}-${s.state}`} x={x(s.startUs)} width={Math.max(0.5, x(s.endUs) - x(s.startUs))} y={0} height={HEIGHT} fill={STATE_COLORS[s.state]}>
          <title>{`${STATE_LABELS[s.state]} for ${formatDurationNs((s.endUs - s.startUs) * 1000)}`}</title>
        </rect>
      ))}
    </svg>
  );
}
