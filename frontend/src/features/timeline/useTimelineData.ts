/**
 * The timeline's server state: which tracks and range are asked for, the TanStack query answering
 * them, the rows the chart draws, and how long each wait took (`timing.ts`). A brush, key or button
 * announces its range here first, so the request leaves before the URL round trip re-renders the page.
 */
import { keepPreviousData, useQuery, useQueryClient, type UseQueryResult } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { Selection } from '../../shared/selection';
import type { TimedTimeline, TimelineRequest, TimelineResponse, TrackInfo, TrackListing } from './api';
import { useDebounced } from './hooks';
import { LABEL_WIDTH } from './layout';
import { timelineQuery } from './queries';
import { listingRange, shownRange } from './shownRange';
import type { Row } from './TimelineChart';
import type { TimeRange } from './timeScale';
import { TimelineClock, type TimelineInteraction, type TimelineTiming } from './timing';
import { defaultTrackIds, moreMetrics, orderedTracks, unknownTracks } from './trackDefaults';
import type { CpuSplit } from './urlState';

/** Responses already drawn once: shown again, they are timed from when they are shown. */
const drawnBefore = new WeakSet<object>();

const FETCH_DEBOUNCE_MS = 120;
const MIN_PLOT_WIDTH = 200;

export interface TimelineDataInput {
  listing: TrackListing;
  selection: Selection;
  /** The URL's `tracks=`; null for the defaults. */
  trackParam: string[] | null;
  split: CpuSplit;
  /** The chart box's width in CSS pixels (0 until measured: nothing is fetched before). */
  width: number;
}

export interface TimelineData {
  infos: TrackInfo[];
  /** Ids the URL names that this selection does not have. */
  missing: string[];
  /** With the default tracks, the metric tracks they leave out; null once tracks are picked. */
  more: ReturnType<typeof moreMetrics> | null;
  range: TimeRange | null;
  plotWidth: number;
  query: UseQueryResult<TimedTimeline>;
  response: TimelineResponse | undefined;
  rows: Row[];
  /** The data drawn, handed back by the chart's onDrawn; '' while older data stands in. */
  dataKey: string;
  timing: TimelineTiming | null;
  onDrawn: (at: number, key: string) => void;
  /** A brush, key, button or wheel asks for `next` (null: the whole incident). */
  announce: (next: TimeRange | null, kind: TimelineInteraction, wheel: boolean) => void;
}

export function useTimelineData({ listing, selection, trackParam, split, width }: TimelineDataInput): TimelineData {
  const incident = listing.incident;
  const chosen = useMemo(() => trackParam ?? defaultTrackIds(listing), [trackParam, listing]);
  const infos = useMemo(() => orderedTracks(listing, chosen), [listing, chosen]);
  const missing = useMemo(() => unknownTracks(listing, chosen), [listing, chosen]);
  const more = useMemo(() => (trackParam === null ? moreMetrics(listing) : null), [trackParam, listing]);
  const { fromUs, toUs } = selection;
  const range = useMemo(() => shownRange({ fromUs, toUs }, listing), [fromUs, toUs, listing]);
  const plotWidth = Math.max(MIN_PLOT_WIDTH, width - LABEL_WIDTH - 2);

  const requestFor = useCallback(
    (r: TimeRange): TimelineRequest | null =>
      infos.length > 0
        ? {
            incident,
            captures: selection.captures,
            hosts: selection.hosts,
            tracks: infos.map((t) => t.id),
            startUs: r.fromUs,
            endUs: r.toUs,
            widthPx: plotWidth,
            pid: selection.pid,
            tid: selection.tid,
            comm: selection.comm,
            split,
          }
        : null,
    [incident, infos, selection.captures, selection.hosts, selection.pid, selection.tid, selection.comm, plotWidth, split],
  );
  const queryClient = useQueryClient();
  /**
   * Asks the server for a range as soon as a brush, key or button picks it. Going through the URL
   * first re-renders the whole page before the request leaves, which cost a brush about 100 ms on a
   * big incident; the page's query then finds this request in flight under the same key.
   */
  const fetchEarly = useRef<(next: TimeRange | null) => void>(() => undefined);
  useEffect(() => {
    fetchEarly.current = (next) => {
      const target = next ?? listingRange(listing);
      const early = target ? requestFor(target) : null;
      // A failure is the page query's to show, when it asks again under the same key.
      if (early) queryClient.query(timelineQuery(early)).catch(() => undefined);
    };
  }, [listing, requestFor, queryClient]);

  const clock = useRef(new TimelineClock());
  /** Only bursts of wheel zooms wait before fetching; a brush, key or button fetches at once. */
  const [debounceMs, setDebounceMs] = useState(0);
  const [timing, setTiming] = useState<TimelineTiming | null>(null);

  const announce = useCallback((next: TimeRange | null, kind: TimelineInteraction, wheel: boolean) => {
    clock.current.begin(kind);
    setDebounceMs(wheel ? FETCH_DEBOUNCE_MS : 0);
    if (!wheel) fetchEarly.current(next);
  }, []);

  const request = range ? requestFor(range) : null;
  const settledRequest = useDebounced(request, debounceMs);
  /** The range on screen; a brush or zoom is answered when data fetched for it is drawn. */
  const currentKey = request ? JSON.stringify(request) : '';
  const requestKey = settledRequest ? JSON.stringify(settledRequest) : '';
  const query = useQuery({
    ...timelineQuery(settledRequest),
    enabled: settledRequest !== null && width > 0,
    placeholderData: keepPreviousData,
  });
  const fresh = query.data !== undefined && !query.isPlaceholderData;

  // Fresh data starts a render wait (unless a brush or zoom is already waiting for it), timed from
  // its arrival; a response drawn before (back from another view, from the cache) from now.
  useEffect(() => {
    const d = query.data;
    if (!d || query.isPlaceholderData) return;
    clock.current.begin('render', drawnBefore.has(d) ? performance.now() : d.received);
    drawnBefore.add(d);
  }, [query.data, query.isPlaceholderData]);
  useEffect(() => {
    if (query.isError) clock.current.cancel();
  }, [query.isError]);

  const onDrawn = useCallback(
    (at: number, key: string) => {
      // Old data redrawn at the new scale (while the new range loads) answers nothing yet.
      if (!fresh || key !== currentKey || query.isFetching) return;
      const t = clock.current.settle(at);
      if (t) setTiming(t);
    },
    [fresh, currentKey, query.isFetching],
  );

  const response = query.data?.value;
  const byId = useMemo(() => new Map((response?.tracks ?? []).map((t) => [t.id, t])), [response]);
  const rows: Row[] = useMemo(() => {
    const out: Row[] = [];
    for (const host of listing.hosts) {
      const tracks = infos.filter((t) => t.host === host.host);
      if (tracks.length === 0) continue;
      out.push({ kind: 'host', host });
      for (const info of tracks) out.push({ kind: 'track', info, data: byId.get(info.id) });
    }
    return out;
  }, [listing.hosts, infos, byId]);

  return {
    infos,
    missing,
    more,
    range,
    plotWidth,
    query,
    response,
    rows,
    dataKey: query.isPlaceholderData ? '' : requestKey,
    timing,
    onDrawn,
    announce,
  };
}
