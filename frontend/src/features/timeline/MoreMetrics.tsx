/**
 * Under the default tracks, the metric tracks they leave out: how many, and one button that shows
 * them (as many as one request may draw). Each is also in the track picker, to turn on alone.
 */
import type { TrackInfo } from './api';
import type { moreMetrics } from './trackDefaults';

export function MoreMetrics({
  shown,
  more,
  onShow,
}: {
  shown: readonly TrackInfo[];
  more: ReturnType<typeof moreMetrics>;
  onShow: (ids: string[]) => void;
}) {
  const shownMetrics = shown.filter((t) => t.type === 'metric').length;
  const adding = more.withThem.length - shown.length;
  const hidden = more.hidden.length;
  return (
    <div className="tl-more small" data-testid="more-metrics">
      <span>
        {shownMetrics} metric track{shownMetrics === 1 ? '' : 's'} shown: free memory and the series that change most.{' '}
        {hidden} more {hidden === 1 ? 'is' : 'are'} in the track list.
      </span>
      <button type="button" className="btn btn--small" onClick={() => onShow(more.withThem)}>
        {adding >= hidden ? `Show ${hidden === 1 ? 'it' : `all ${hidden}`}` : `Show ${adding} of them`}
      </button>
      {adding < hidden ? <span className="muted">(one view draws at most {more.withThem.length} tracks)</span> : null}
    </div>
  );
}
