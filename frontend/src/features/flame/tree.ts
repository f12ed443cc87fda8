/**
 * Pure operations on server flame trees (flame graphs and diffs alike): lookup by path, grafting
 * focused subtrees, search totals. All of them loop rather than recurse: a stack can be 100,000
 * frames deep, and so can a zoom path.
 */
import type { FlameNode } from '../../api/types';

/** What the path operations need of a node: flame and diff nodes both have it. */
export interface TreeNode<T> {
  name: string;
  kind: string;
  children: T[];
  truncated?: boolean;
}

/** Stable key for a frame path (names may contain any character, so no joining on separators). */
export const pathKey = (path: readonly string[]): string => JSON.stringify(path);

/** The node reached by following `path` (names below the root); the root for []. */
export function findPath<T extends TreeNode<T>>(root: T, path: readonly string[]): T | undefined {
  let node: T | undefined = root;
  for (const name of path) {
    node = node.children.find((c) => c.name === name);
    if (!node) return undefined;
  }
  return node;
}

/** The longest prefix of `path` that exists in the tree. */
export function deepestExisting<T extends TreeNode<T>>(root: T, path: readonly string[]): string[] {
  const found: string[] = [];
  let node = root;
  for (const name of path) {
    const next = node.children.find((c) => c.name === name);
    if (!next) break;
    found.push(name);
    node = next;
  }
  return found;
}

/** True if pruning removed anything inside this node's subtree (itself included). */
export function subtreeTruncated<T extends TreeNode<T>>(node: T): boolean {
  const stack: T[] = [node];
  for (let n = stack.pop(); n; n = stack.pop()) {
    if (n.truncated) return true;
    for (const c of n.children) stack.push(c);
  }
  return false;
}

/**
 * Replace the subtree at `path` with `sub` (a focused response's root: the same frame, its numbers
 * and its children in full), copying only the nodes on the path so the input tree is left untouched.
 * Returns the input unchanged if the path is missing.
 */
export function graft<T extends TreeNode<T>>(root: T, path: readonly string[], sub: T): T {
  const chain: T[] = [root];
  const indexes: number[] = [];
  let node = root;
  for (const name of path) {
    const idx = node.children.findIndex((c) => c.name === name);
    const child = node.children[idx];
    if (!child) return root;
    chain.push(child);
    indexes.push(idx);
    node = child;
  }
  let replaced: T = { ...node, ...sub, truncated: false };
  for (let depth = path.length - 1; depth >= 0; depth -= 1) {
    const parent = chain[depth] as T;
    const children = parent.children.slice();
    children[indexes[depth] as number] = replaced;
    replaced = { ...parent, children };
  }
  return replaced;
}

/**
 * Which focused subtree to fetch to show `zoom` in full, or null if nothing is missing.
 * `loaded` holds the path keys already fetched, so a path is never asked for twice.
 */
export function focusToFetch<T extends TreeNode<T>>(root: T, zoom: readonly string[], loaded: ReadonlySet<string>): string[] | null {
  if (zoom.length === 0) return null;
  const existing = deepestExisting(root, zoom);
  if (existing.length === 0) return null;
  const node = findPath(root, existing);
  if (!node || loaded.has(pathKey(existing))) return null;
  // Zoom target present: fetch only if its subtree was pruned. Target missing: its ancestor was pruned.
  if (existing.length === zoom.length) return subtreeTruncated(node) ? existing : null;
  return node.truncated || node.children.some((c) => c.kind === 'other') ? existing : null;
}

export interface ZoomedTree<T> {
  tree: T;
  /** Paths whose focused subtrees were grafted in, outermost first. */
  grafted: string[][];
}

/**
 * The tree to draw for a zoom path: `base`, with focused subtrees fetched and grafted wherever
 * server-side pruning removed detail on the way to (or below) the zoomed frame.
 */
export async function withZoomDetail<T extends TreeNode<T>>(
  base: T,
  zoom: readonly string[],
  fetchFocused: (path: string[]) => Promise<T>,
): Promise<ZoomedTree<T>> {
  let tree = base;
  const loaded = new Set<string>();
  const grafted: string[][] = [];
  for (let need = focusToFetch(tree, zoom, loaded); need; need = focusToFetch(tree, zoom, loaded)) {
    tree = graft(tree, need, await fetchFocused(need));
    loaded.add(pathKey(need));
    grafted.push(need);
  }
  return { tree, grafted };
}

/**
 * Weight of the frames whose names match, counting a matched frame's matched descendants once
 * (the same rule d3-flame-graph's highlighting uses). The root never matches.
 */
export function matchedValue(root: FlameNode, matches: (name: string) => boolean): number {
  let sum = 0;
  const stack: FlameNode[] = [...root.children];
  for (let n = stack.pop(); n; n = stack.pop()) {
    if (matches(n.name)) sum += n.value;
    else for (const c of n.children) stack.push(c);
  }
  return sum;
}
