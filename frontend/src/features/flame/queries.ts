import { keepPreviousData, queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { getFacets, getFlame } from '../../api/endpoints';
import type { FlameNode, FlameQuery } from '../../api/types';
import { focusToFetch, graft, pathKey } from './tree';

export const facetsQuery = (captures: number[]) =>
  queryOptions({
    queryKey: ['facets', captures],
    queryFn: ({ signal }) => getFacets(captures, signal),
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
export function useZoomedTree(q: FlameQuery, zoom: string[], enabled: boolean) {
  const qc = useQueryClient();
  const zoomKey = pathKey(zoom);
  return useQuery({
    queryKey: ['flame-zoomed', q, zoomKey],
    enabled,
    staleTime: Infinity,
    structuralSharing: false,
    placeholderData: keepPreviousData,
    queryFn: async (): Promise<{ tree: FlameNode; grafted: string[][] }> => {
      const base = await qc.query(flameQuery(q));
      let tree = base.root;
      const loaded = new Set<string>();
      const grafted: string[][] = [];
      const path = JSON.parse(zoomKey) as string[];
      for (let need = focusToFetch(tree, path, loaded); need; need = focusToFetch(tree, path, loaded)) {
        const focused = await qc.query(flameQuery({ ...q, focus: need }));
        tree = graft(tree, need, focused.root);
        loaded.add(pathKey(need));
        grafted.push(need);
      }
      return { tree, grafted };
    },
  });
}
