import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { flameArrivedAt } from '../../api/endpoints';
import type { FlameResponse } from '../../api/types';
import { InteractionClock, type InteractionTime } from '../../shared/timing';

interface ViewInputs {
  /** The base response being shown. */
  data: FlameResponse | undefined;
  zoomKey: string;
  search: string;
  /** A chart is on the page (there is data and it is not empty). */
  charted: boolean;
  loading: boolean;
}

/**
 * How long people wait on the flame view: from data arriving, a zoom or a search to the chart drawn
 * and settled. Each wait is a `flame:render|zoom|search` measure; the latest is returned for display.
 */
export function useViewTiming({ data, zoomKey, search, charted, loading }: ViewInputs) {
  const [clock] = useState(() => new InteractionClock('flame'));
  const [latest, setLatest] = useState<InteractionTime | null>(null);

  useEffect(() => {
    if (!data) return;
    // Fresh data is timed from its arrival; data from the cache from now.
    const arrived = flameArrivedAt(data);
    clock.begin('render', arrived !== undefined && arrived > clock.settledAt ? arrived : performance.now());
  }, [data, clock]);

  // Zooms and searches from anywhere (Back, Esc, typing). Layout effects run before the chart's
  // draw; a zoom begun by a click (beginZoom) keeps its earlier start.
  const shown = useRef({ zoomKey, search });
  useLayoutEffect(() => {
    if (shown.current.zoomKey !== zoomKey) clock.begin('zoom');
    if (shown.current.search !== search) clock.begin('search');
    shown.current = { zoomKey, search };
  }, [zoomKey, search, clock]);

  useEffect(() => {
    if (!charted && !loading) clock.cancel();
  }, [charted, loading, clock]);

  return {
    latest,
    beginZoom: () => clock.begin('zoom'),
    /** For FlameChart's onSettled. */
    settled: (at: number) => {
      const t = clock.settle(at);
      if (t) setLatest(t);
    },
  };
}
