import { useEffect, useState } from 'react';
import { InteractionClock, type InteractionTime } from '../../shared/timing';
import { heatmapArrivedAt, type HeatmapResponse } from './api';

/**
 * How long a heatmap takes from its data arriving to the cells painted: each is recorded as a
 * `heatmap:render` measure, and the latest is returned for the status line.
 */
export function useRenderTiming(data: HeatmapResponse | undefined) {
  const [clock] = useState(() => new InteractionClock('heatmap'));
  const [latest, setLatest] = useState<InteractionTime | null>(null);

  useEffect(() => {
    if (!data) return;
    // Fresh data is timed from its arrival; data from the cache from now.
    const arrived = heatmapArrivedAt(data);
    clock.begin('render', arrived !== undefined && arrived > clock.settledAt ? arrived : performance.now());
  }, [data, clock]);

  return {
    latest,
    drawn: (at: number) => {
      const t = clock.settle(at);
      if (t) setLatest(t);
    },
  };
}
