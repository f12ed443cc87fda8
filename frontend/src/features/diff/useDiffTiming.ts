import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { InteractionClock, type InteractionTime } from '../../shared/timing';
import { diffArrivedAt, type DiffResponse } from './api';

interface Inputs {
  data: DiffResponse | undefined;
  zoomKey: string;
  search: string;
  /** Charts on the page (2 side by side, 0 when there is nothing to draw): a wait ends when each has drawn. */
  charts: number;
}

/**
 * How long people wait on the diff: from data arriving, a zoom or a search until every chart on the
 * page is drawn and painted. Each wait is a `diff:render|zoom|search` measure (performance.measure);
 * the latest is returned for the status line.
 */
export function useDiffTiming({ data, zoomKey, search, charts }: Inputs) {
  const [clock] = useState(() => new InteractionClock('diff'));
  const [latest, setLatest] = useState<InteractionTime | null>(null);
  const drawn = useRef(0);

  useEffect(() => {
    if (!data) return;
    const arrived = diffArrivedAt(data);
    drawn.current = 0;
    clock.begin('render', arrived !== undefined && arrived > clock.settledAt ? arrived : performance.now());
  }, [data, clock]);

  const shown = useRef({ zoomKey, search, charts });
  useLayoutEffect(() => {
    const before = shown.current;
    if (before.zoomKey !== zoomKey) clock.begin('zoom');
    if (before.search !== search) clock.begin('search');
    if (before.zoomKey !== zoomKey || before.search !== search || before.charts !== charts) drawn.current = 0;
    shown.current = { zoomKey, search, charts };
  }, [zoomKey, search, charts, clock]);

  // Nothing will be drawn (an empty diff): no wait is open, or the next one would start here.
  useEffect(() => {
    if (charts === 0) clock.cancel();
  }, [charts, data, zoomKey, search, clock]);

  return {
    latest,
    /** For each DiffChart's onSettled. */
    settled: (at: number) => {
      drawn.current += 1;
      if (drawn.current < charts || clock.pending === null) return;
      drawn.current = 0;
      const t = clock.settle(at);
      if (t) setLatest(t);
    },
  };
}
