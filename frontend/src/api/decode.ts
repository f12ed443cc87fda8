/**
 * The run-time checks of JSON that remain: the flame graph's tree, whose decoder keeps only what the
 * chart reads of tens of thousands of nodes, iteratively so that stacks of any depth decode (the
 * diff's tree decoder, in features/diff/api.ts, shares its pieces), and the envelope of an exported
 * bundle's embedded data, which is not an API answer. Every answer is typed by the contract
 * (contract.ts) and otherwise read as it comes.
 */
import { membersOf } from './contract';
import type { FlameNode, FlameResponse, FrameKind } from './types';

export class DecodeError extends Error {
  constructor(path: string, expected: string, got: unknown) {
    super(`Unexpected API response at ${path}: expected ${expected}, got ${describe(got)}`);
    this.name = 'DecodeError';
  }
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

type Obj = Record<string, unknown>;

export function obj(v: unknown, path: string): Obj {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new DecodeError(path, 'object', v);
  return v as Obj;
}

export function str(v: unknown, path: string): string {
  if (typeof v !== 'string') throw new DecodeError(path, 'string', v);
  return v;
}

export function num(v: unknown, path: string): number {
  if (typeof v !== 'number' || Number.isNaN(v)) throw new DecodeError(path, 'number', v);
  return v;
}

export function bool(v: unknown, path: string): boolean {
  if (typeof v !== 'boolean') throw new DecodeError(path, 'boolean', v);
  return v;
}

export function arr<T>(v: unknown, path: string, decode: (item: unknown, path: string) => T): T[] {
  if (!Array.isArray(v)) throw new DecodeError(path, 'array', v);
  return v.map((item: unknown, i) => decode(item, `${path}[${i}]`));
}

export function oneOf<T extends string>(allowed: readonly T[]) {
  return (v: unknown, path: string): T => {
    const s = str(v, path);
    if (!(allowed as readonly string[]).includes(s)) throw new DecodeError(path, allowed.join('|'), s);
    return s as T;
  };
}

const FRAME_KINDS = membersOf<FrameKind>({
  root: true,
  process: true,
  user: true,
  kernel: true,
  jit: true,
  inline: true,
  unknown: true,
  other: true,
  deeper: true,
});
const frameKinds: readonly string[] = FRAME_KINDS;

/** A frame's kind; one this console does not draw (from a newer server, say) is drawn as `unknown`. */
export function frameKind(v: unknown): FrameKind {
  return typeof v === 'string' && frameKinds.includes(v) ? (v as FrameKind) : 'unknown';
}

interface PendingNode {
  raw: unknown;
  parent: PendingNode | null;
  index: number;
  into: FlameNode[];
}

/** `root.children[3].children[0]`: built only when something is wrong, so valid trees cost nothing. */
function pendingPath(item: PendingNode, rootPath: string): string {
  const parts: string[] = [];
  for (let p = item; p.parent; p = p.parent) parts.push(`.children[${p.index}]`);
  return rootPath + parts.reverse().join('');
}

/**
 * Iterative so that deep stacks (perf allows 127+ frames, merged trees more) cannot overflow. Trees
 * have tens of thousands of nodes, so the checks are inline and error paths are built lazily.
 */
export function decodeFlameNode(v: unknown, path = 'root'): FlameNode {
  const top: FlameNode[] = [];
  const stack: PendingNode[] = [{ raw: v, parent: null, index: 0, into: top }];
  for (let item = stack.pop(); item; item = stack.pop()) {
    const { raw } = item;
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new DecodeError(pendingPath(item, path), 'object', raw);
    const o = raw as Obj;
    const { name, value, samples, children } = o;
    if (typeof name !== 'string') throw new DecodeError(`${pendingPath(item, path)}.name`, 'string', name);
    if (typeof value !== 'number' || Number.isNaN(value)) throw new DecodeError(`${pendingPath(item, path)}.value`, 'number', value);
    let count = 0;
    if (samples !== null && samples !== undefined) {
      if (typeof samples !== 'number' || Number.isNaN(samples)) throw new DecodeError(`${pendingPath(item, path)}.samples`, 'number', samples);
      count = samples;
    }
    const node: FlameNode = { name, value, samples: count, kind: frameKind(o.kind), children: [] };
    if (o.truncated === true) node.truncated = true;
    if (typeof o.folded_frames === 'number') node.folded_frames = o.folded_frames;
    item.into.push(node);
    if (children === null || children === undefined) continue;
    if (!Array.isArray(children)) throw new DecodeError(`${pendingPath(item, path)}.children`, 'array', children);
    const kids: unknown[] = children;
    // Pushed in reverse so children are decoded, and appended, in order.
    for (let i = kids.length - 1; i >= 0; i -= 1) stack.push({ raw: kids[i], parent: item, index: i, into: node.children });
  }
  const root = top[0];
  if (!root) throw new DecodeError(path, 'object', v);
  return root;
}

/** The answer as the contract types it, its tree decoded (the fields the chart reads, checked). */
export function decodeFlame(v: unknown): FlameResponse {
  const o = obj(v, 'flame');
  return { ...(o as FlameResponse), root: decodeFlameNode(o.root, 'flame.root') };
}
