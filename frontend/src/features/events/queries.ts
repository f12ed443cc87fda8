import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { getStack, listEvents } from '../../api/endpoints';
import type { EventsQuery } from '../../api/types';

export const eventsQuery = (q: EventsQuery) =>
  queryOptions({
    queryKey: ['events', q],
    queryFn: ({ signal }) => listEvents(q, signal),
    staleTime: 30_000,
    placeholderData: keepPreviousData,
  });

/** Stacks are immutable once stored. */
export const stackQuery = (id: number) =>
  queryOptions({ queryKey: ['stack', id], queryFn: ({ signal }) => getStack(id, signal), staleTime: Infinity });
