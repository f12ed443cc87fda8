import { describe, expect, it } from 'vitest';
import { DecodeError } from '../../api/decode';
import { decodeDiff, decodeDiffNode, diffParams, type DiffNode } from './api';
import { diffTooltip, formatPoints, isDiffNode, sideTree } from './view';
import { EMPTY_SIDE } from './urlState';
import { sideQuery } from './sides';

const node = (name: string, a: number, b: number, children: DiffNode[] = [], delta = b - a): DiffNode => ({
  name,
  kind: 'user',
  value: b,
  samples: 0,
  a,
  b,
  delta,
  share_delta: 0,
  children,
});

describe('side trees', () => {
  it('draws A by A’s weights, without frames A does not have', () => {
    const root = node('all', 10, 10, [node('gone', 4, 0), node('kept', 6, 4), node('new', 0, 6)]);
    const a = sideTree(root, 'a');
    expect(a.value).toBe(10);
    expect(a.children.map((c) => [c.name, c.value])).toEqual([
      ['gone', 4],
      ['kept', 6],
    ]);
    expect(sideTree(root, 'b')).toBe(root);
    expect(root.children[0]?.value).toBe(0);
  });
});

describe('tooltip', () => {
  const totals = { a: 100, b: 200, scale: 2, normalize: 'total' as const, unit: 'samples' };

  it('gives both weights with their shares, the change and the share change', () => {
    const content = diffTooltip({ ...node('scan', 25, 100, [], 50), share_delta: 0.25 }, totals);
    expect(content.title).toBe('scan');
    expect(Object.fromEntries(content.rows.map((r) => [r.label, r.value]))).toEqual({
      kind: 'user',
      'A (baseline)': '25 samples · 25.0% of A',
      B: '100 samples · 50.0% of B',
      change: "+50 samples (A scaled ×2 to B's total)",
      'share change': '+25.0 pp',
    });
  });

  it('says which side a frame is only on', () => {
    expect(diffTooltip(node('new', 0, 3), totals).rows.at(-1)).toEqual({ label: 'only in', value: 'B: new, not in the baseline' });
    expect(diffTooltip(node('gone', 3, 0), { ...totals, normalize: 'none', scale: 1 }).rows.find((r) => r.label === 'change')?.value).toBe(
      '−3 samples',
    );
  });

  it('formats share changes in percentage points', () => {
    expect(formatPoints(0.0123)).toBe('+1.23 pp');
    expect(formatPoints(-0.5)).toBe('−50.0 pp');
    expect(formatPoints(0.00001)).toBe('0 pp');
  });
});

describe('API boundary', () => {
  const raw = {
    root: { name: 'all', kind: 'root', value: 4, a: 2, b: 4, delta: 2, share_delta: 0, children: [{ name: 'f', kind: 'weird', value: 4, a: 2, b: 4, delta: 2, share_delta: 0, children: [], truncated: true }] },
    a: { captures: [1], total: 2, samples: 2 },
    b: { captures: [2], total: 4, samples: 4 },
    source: 'samples',
    state: null,
    unit: 'ns',
    event: 'cpu-clock',
    events: ['cpu-clock'],
    normalize: 'none',
    scale: 1,
    functions: [{ name: 'f', self_a: 2, self_b: 4, self_delta: 2, total_a: 2, total_b: 4, total_delta: 2 }],
    function_count: 1,
    node_count: 2,
    pruned_nodes: 0,
    prune_threshold: 0,
    focus: [],
    max_depth: 256,
    deep_nodes: 0,
    height: 1,
  };

  it('decodes a response, tree and table', () => {
    const d = decodeDiff(raw);
    expect(d.root.children[0]).toMatchObject({ name: 'f', kind: 'unknown', a: 2, b: 4, truncated: true });
    expect(isDiffNode(d.root)).toBe(true);
    expect(d.functions[0]?.total_delta).toBe(2);
    expect(d.normalize).toBe('none');
  });

  it('names the path of what is wrong', () => {
    const broken = { ...raw, root: { ...raw.root, children: [{ ...raw.root.children[0], delta: 'x' }] } };
    expect(() => decodeDiff(broken)).toThrow(DecodeError);
    expect(() => decodeDiff(broken)).toThrow('diff.root.children[0].delta');
    expect(() => decodeDiffNode([])).toThrow('diff.root');
  });

  it('decodes deep trees without recursion', () => {
    let deep: Record<string, unknown> = { name: 'leaf', value: 1, a: 1, b: 1, delta: 0, share_delta: 0 };
    for (let i = 0; i < 20000; i += 1) deep = { name: `f${i}`, value: 1, a: 1, b: 1, delta: 0, share_delta: 0, children: [deep] };
    let n: DiffNode | undefined = decodeDiffNode(deep);
    let depth = 0;
    while (n) {
      depth += 1;
      n = n.children[0];
    }
    expect(depth).toBe(20001);
  });

  it('decodes (deeper) frames and the count of frames past the depth budget', () => {
    const deeper = { name: '(deeper)', kind: 'deeper', value: 3, a: 3, b: 3, delta: 0, share_delta: 0, children: [], folded_frames: 500 };
    const d = decodeDiff({ ...raw, root: { ...raw.root, children: [deeper] }, deep_nodes: 500 });
    expect(d.root.children[0]).toMatchObject({ kind: 'deeper', folded_frames: 500 });
    expect(d.deep_nodes).toBe(500);
    expect(diffTooltip(d.root.children[0] as DiffNode, { a: 3, b: 3, scale: 1, normalize: 'none', unit: 'samples' }).rows).toContainEqual({
      label: 'folded',
      value: '500 frames past the depth budget — click to load the next levels',
    });
  });

  it('sends each side under its prefix', () => {
    const p = diffParams({
      a: sideQuery({ ...EMPTY_SIDE, captures: [1], fromUs: 1_000_000, within: { startUs: 0, endUs: 9, outside: true } }, []),
      b: sideQuery({ ...EMPTY_SIDE, captures: [2, 3], comm: 'db' }, []),
      source: 'off-cpu',
      state: 'D',
      event: 'cycles',
      normalize: 'total',
    });
    expect(Object.fromEntries(new URLSearchParams(p.toString()))).toEqual({
      'a.captures': '1',
      'a.start': '1970-01-01T00:00:01.000000Z',
      'a.within': '!0-9',
      'b.captures': '2,3',
      'b.comm': 'db',
      source: 'off-cpu',
      state: 'D',
      normalize: 'total',
      max_nodes: '50000',
      top: '200',
    });
  });

  it('asks for a zoomed frame by its path, names with any character in them', () => {
    const side = sideQuery({ ...EMPTY_SIDE, captures: [1] }, []);
    const q = { a: side, b: side, source: 'cpu' as const, state: null, event: null, normalize: 'total' as const };
    expect(diffParams(q).has('focus')).toBe(false);
    expect(diffParams({ ...q, focus: [] }).has('focus')).toBe(false);
    expect(diffParams({ ...q, focus: ['db', 'a,b > c'] }).get('focus')).toBe('["db","a,b > c"]');
    expect(decodeDiff({ ...raw, focus: ['db'] }).focus).toEqual(['db']);
  });
});
