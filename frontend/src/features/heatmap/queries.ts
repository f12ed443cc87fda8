import { queryOptions } from '@tanstack/react-query';
import { getHeatmap, getStreams, type HeatmapQuery } from './api';

/** A parsed capture does not change; a re-parse shows up as a new capture list and new ids' data. */
export const heatmapQuery = (q: HeatmapQuery) =>
  queryOptions({
    queryKey: ['heatmap', q],
    queryFn: ({ signal }) => getHeatmap(q, signal),
    enabled: q.captures.length > 0,
    staleTime: 60_000,
    structuralSharing: false,
  });

export const streamsQuery = (captures: number[]) =>
  queryOptions({
    queryKey: ['heatmap-streams', captures],
    queryFn: ({ signal }) => getStreams(captures, signal),
    enabled: captures.length > 0,
    staleTime: 60_000,
  });
