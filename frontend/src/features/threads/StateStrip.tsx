import { formatDurationNs } from '../../shared/units';
import type { Segment } from './api';
import { STATE_COLORS, STATE_LABELS } from './threadsView';

const HEIGHT = 22;
const HATCH_ID = 'state-strip-inferred';

/**
 * A thread's state over time (a swimlane): one rectangle per segment on a shared time scale. The
 * server sends the thread's whole line, unknown stretches included, so per-state lengths here are
 * the bar's; inferred segments are hatched.
 */
export function StateStrip({ segments, fromUs, toUs }: { segments: Segment[]; fromUs: number; toUs: number }) {
  const span = Math.max(1, toUs - fromUs);
  const x = (us: number) => ((us - fromUs) / span) * 1000;
  return (
    <svg className="state-strip" viewBox={`0 0 1000 ${HEIGHT}`} preserveAspectRatio="none" role="img" aria-label="Thread state over time" data-testid="state-strip">
      <defs>
        <pattern id={HATCH_ID} width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
          <rect width="2" height="6" fill="rgba(255,255,255,0.45)" />
        </pattern>
      </defs>
      {segments.map((s, i) => {
        const width = Math.max(0.5, x(s.endUs) - x(s.startUs));
        const title = `${STATE_LABELS[s.state]} for ${formatDurationNs((s.endUs - s.startUs) * 1000)}${s.inferred ? ', inferred: no closing event' : ''}`;
        return (
          <g key={i} data-state={s.state} data-inferred={s.inferred ? 'true' : undefined}>
            <rect x={x(s.startUs)} width={width} y={0} height={HEIGHT} fill={STATE_COLORS[s.state]}>
              <title>{title}</title>
            </rect>
            {s.inferred ? <rect x={x(s.startUs)} width={width} y={0} height={HEIGHT} fill={`url(#${HATCH_ID})`} pointerEvents="none" /> : null}
          </g>
        );
      })}
    </svg>
  );
}
