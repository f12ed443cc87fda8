/**
 * `GET /api/diff`: types (the API's), the tree's decoder at the parse boundary, and the request. Each
 * side is a selection (`a.*`, `b.*`); the server reads both with the flame graph's own queries.
 */
import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { apiUrl, routeQuery, type ApiUrl, type Schemas } from '../../api/contract';
import { DecodeError, frameKind, obj } from '../../api/decode';
import { MAX_NODES } from '../../api/endpoints';
import { getJsonTimed } from '../../api/http';
import { formatWithin, isoFromEpochUs, type Selection } from '../../shared/selection';
import { pathKey, withZoomDetail, type ZoomedTree } from '../flame/tree';

export type Normalize = Schemas['DiffOut']['normalize'];

/**
 * A frame of the diff as the chart draws it: the API's (`value` is the width drawn, B's weight as
 * sent; `a` and `b` each side's own weight, `delta` = b − a × scale, `share_delta` = B's share of
 * its total minus A's), with `samples` 0: diffs send no sample counts, and the flame graph's tree
 * code reads the field.
 */
export type DiffNode = Omit<Schemas['DiffNode'], 'children'> & { samples: number; children: DiffNode[] };

export type DiffSideTotals = Schemas['SideOut'];
export type DiffFunction = Schemas['FunctionOut'];
export type DiffResponse = Omit<Schemas['DiffOut'], 'root'> & { root: DiffNode };

/** One side of a request: capture ids resolved, the rest of the selection as is. */
export interface DiffSideQuery {
  captures: number[];
  fromUs: number | null;
  toUs: number | null;
  pid: number | null;
  tid: number | null;
  comm: string | null;
  within: Selection['within'];
}

export interface DiffQuery {
  a: DiffSideQuery;
  b: DiffSideQuery;
  source: 'cpu' | 'off-cpu';
  state: string | null;
  event: string | null;
  normalize: Normalize;
  /** Only that frame's subtree, pruned with a fresh node budget (a zoom into pruned detail). */
  focus?: readonly string[];
}

/** Functions asked for per sort (total, self); the table sorts what arrives. */
export const TABLE_TOP = 200;

export function diffParams(q: DiffQuery) {
  const p = routeQuery<'/api/diff'>();
  for (const [prefix, side] of [
    ['a', q.a],
    ['b', q.b],
  ] as const) {
    p.set(`${prefix}.captures`, side.captures.join(','));
    if (side.fromUs !== null) p.set(`${prefix}.start`, isoFromEpochUs(side.fromUs));
    if (side.toUs !== null) p.set(`${prefix}.end`, isoFromEpochUs(side.toUs));
    if (side.pid !== null) p.set(`${prefix}.pid`, String(side.pid));
    if (side.tid !== null) p.set(`${prefix}.tid`, String(side.tid));
    if (side.comm) p.set(`${prefix}.comm`, side.comm);
    if (side.within) p.set(`${prefix}.within`, formatWithin(side.within));
  }
  p.set('source', q.source === 'off-cpu' ? 'off-cpu' : 'samples');
  if (q.source === 'off-cpu' && q.state) p.set('state', q.state);
  if (q.source === 'cpu' && q.event) p.set('event', q.event);
  p.set('normalize', q.normalize);
  p.set('max_nodes', String(MAX_NODES));
  p.set('top', String(TABLE_TOP));
  if (q.focus && q.focus.length > 0) p.set('focus', JSON.stringify(q.focus));
  return p;
}

export const diffUrl = (q: DiffQuery): ApiUrl<'/api/diff'> => apiUrl('/api/diff', diffParams(q));

function finite(o: Record<string, unknown>, key: string, path: () => string): number {
  const v = o[key];
  if (typeof v !== 'number' || Number.isNaN(v)) throw new DecodeError(`${path()}.${key}`, 'number', v);
  return v;
}

/** Iterative: stacks nest deeper than a recursive decoder could follow; checks inline, paths lazy. */
export function decodeDiffNode(v: unknown, rootPath = 'diff.root'): DiffNode {
  const top: DiffNode[] = [];
  const stack: { raw: unknown; path: () => string; into: DiffNode[] }[] = [{ raw: v, path: () => rootPath, into: top }];
  for (let item = stack.pop(); item; item = stack.pop()) {
    const { raw, path } = item;
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new DecodeError(path(), 'object', raw);
    const o = raw as Record<string, unknown>;
    if (typeof o.name !== 'string') throw new DecodeError(`${path()}.name`, 'string', o.name);
    const node: DiffNode = {
      name: o.name,
      kind: frameKind(o.kind),
      value: finite(o, 'value', path),
      samples: 0,
      a: finite(o, 'a', path),
      b: finite(o, 'b', path),
      delta: finite(o, 'delta', path),
      share_delta: finite(o, 'share_delta', path),
      children: [],
    };
    if (o.truncated === true) node.truncated = true;
    if (typeof o.folded_frames === 'number') node.folded_frames = o.folded_frames;
    item.into.push(node);
    const kids = o.children;
    if (kids === undefined || kids === null) continue;
    if (!Array.isArray(kids)) throw new DecodeError(`${path()}.children`, 'array', kids);
    for (let i = kids.length - 1; i >= 0; i -= 1) {
      stack.push({ raw: kids[i] as unknown, path: () => `${path()}.children[${i}]`, into: node.children });
    }
  }
  const root = top[0];
  if (!root) throw new DecodeError(rootPath, 'object', v);
  return root;
}

/** The answer as the contract types it, its tree decoded (the fields the chart reads, checked). */
export function decodeDiff(v: unknown): DiffResponse {
  const o = obj(v, 'diff');
  return { ...(o as Schemas['DiffOut']), root: decodeDiffNode(o.root) };
}

const arrivals = new WeakMap<DiffResponse, number>();

/** When a diff response's body had arrived (a performance.now() time), if it came from getDiff. */
export const diffArrivedAt = (r: DiffResponse): number | undefined => arrivals.get(r);

/** Measured as `diff:fetch` (until the body is in) and `diff:decode`. */
export async function getDiff(q: DiffQuery, signal?: AbortSignal): Promise<DiffResponse> {
  const { value, received } = await getJsonTimed(diffUrl(q), { fetch: 'diff:fetch', decode: 'diff:decode' }, signal, decodeDiff);
  arrivals.set(value, received);
  return value;
}

/** A parsed diff never changes: no refetching, and no structural sharing of a 50k-node tree. */
export const diffQuery = (q: DiffQuery) =>
  queryOptions({
    queryKey: ['diff', diffParams(q).toString()],
    queryFn: ({ signal }) => getDiff(q, signal),
    staleTime: Infinity,
    structuralSharing: false,
  });

export interface ZoomedDiff extends ZoomedTree<DiffNode> {
  /** The whole diff the detail was grafted into: a zoom kept on screen while another diff loads is
   * recognised by it and not drawn over the new one. */
  base: DiffResponse;
}

/**
 * The tree to draw for a zoom: the whole diff, with the zoomed frame's subtree fetched with a fresh
 * node budget wherever pruning folded detail on the way to it (as the flame graph does). Each
 * focused answer is its own cached query, so zooming back and forth refetches nothing.
 */
export const zoomedDiffQuery = (qc: QueryClient, q: DiffQuery, zoom: readonly string[]) =>
  queryOptions({
    queryKey: ['diff-zoomed', diffParams(q).toString(), pathKey(zoom)],
    staleTime: Infinity,
    structuralSharing: false,
    queryFn: async (): Promise<ZoomedDiff> => {
      const base = await qc.query(diffQuery(q));
      const zoomed = await withZoomDetail(base.root, zoom, async (focus) => (await qc.query(diffQuery({ ...q, focus }))).root);
      return { ...zoomed, base };
    },
  });
