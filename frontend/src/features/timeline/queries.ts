/**
 * The timeline's data query, one definition for the page's `useQuery` and for fetching a range the
 * moment a brush or zoom asks for it: both must build the same key to share one request.
 */
import { queryOptions } from '@tanstack/react-query';
import { getTimeline, type TimelineRequest } from './api';

export const timelineQuery = (request: TimelineRequest | null) =>
  queryOptions({
    queryKey: ['timeline', request] as const,
    queryFn: ({ signal }) => {
      if (!request) throw new Error('no timeline request');
      return getTimeline(request, signal);
    },
    staleTime: 30_000,
    structuralSharing: false,
  });
