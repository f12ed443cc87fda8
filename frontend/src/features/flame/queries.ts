import { keepPreviousData, queryOptions, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { getFacets, getFlame } from '../../api/endpoints';
import type { FlameNode, FlameQuery } from '../../api/types';
import { pathKey, withZoomDetail, type ZoomedTree } from './tree';

export const facetsQuery = (captures: number[], source?: string, state?: string) =>
  queryOptions({
    queryKey: ['facets', captures, source ?? 'cpu', state ?? ''],
    queryFn: ({ signal }) => getFacets(captures, signal, source, state),
    enabled: captures.length > 0,
    staleTime: 60_000,
  });

/** One flame response. Trees are large: no structural sharing, and a parsed capture does not change. */
export const flameQuery = (q: FlameQuery) =>
  queryOptions({
    queryKey: ['flame', q],
    queryFn: ({ signal }) => getFlame(q, signal),
    staleTime: Infinity,
    structuralSharing: false,
  });

/**
 * The tree to draw for a zoom path: the base response, with focused subtrees fetched and grafted
 * wherever server-side pruning removed detail on the way to (or below) the zoomed frame.
 * Each focused response is its own cached query, so zooming back and forth refetches nothing.
 */
export const zoomedTreeQuery = (qc: QueryClient, q: FlameQuery, zoom: readonly string[]) => {
  const zoomKey = pathKey(zoom);
  return queryOptions({
    queryKey: ['flame-zoomed', q, zoomKey],
    staleTime: Infinity,
    structuralSharing: false,
    queryFn: async (): Promise<ZoomedTree<FlameNode>> => {
      const base = await qc.query(flameQuery(q));
      return withZoomDetail(base.root, zoom, async (focus) => (await qc.query(flameQuery({ ...q, focus }))).root);
    },
  });
};

export function useZoomedTree(q: FlameQuery, zoom: string[], enabled: boolean) {
  const qc = useQueryClient();
  return useQuery({ ...zoomedTreeQuery(qc, q, zoom), enabled, placeholderData: keepPreviousData });
}

/**
 * Start loading a zoom's detail at the click, before the URL change re-renders the page: the
 * request then overlaps the redraw instead of waiting for it.
 */
export function prefetchZoomedTree(qc: QueryClient, q: FlameQuery, zoom: readonly string[]): void {
  // Errors are shown by the query's own observer when the page renders it.
  qc.query(zoomedTreeQuery(qc, q, zoom)).catch(() => undefined);
}
