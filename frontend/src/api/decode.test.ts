import { describe, expect, it } from 'vitest';
import { decodeFlame } from './decode';

describe('the flame tree decoder', () => {
  it('decode deep flame trees without recursion limits and keep truncation flags', () => {
    let node: Record<string, unknown> = { name: 'leaf', value: 1, samples: 1, kind: 'user', children: [] };
    for (let i = 0; i < 20000; i += 1) node = { name: `f${i}`, value: 1, samples: 1, kind: 'kernel', children: [node] };
    const root = { name: 'all', value: 1, samples: 1, kind: 'root', children: [node], truncated: true };
    const f = decodeFlame({ root, total: 1, unit: 'samples', event: 'cpu-clock', node_count: 20002, pruned_nodes: 0, prune_threshold: 0.0001, focus: [] });
    expect(f.root.truncated).toBe(true);
    let depth = 0;
    for (let n = f.root; n.children[0]; n = n.children[0]) depth += 1;
    expect(depth).toBe(20001);
  });

  it('decode (deeper) frames with the count they stand for, and the depth budget', () => {
    const deeper = { name: '(deeper)', value: 3, samples: 1, kind: 'deeper', children: [], folded_frames: 99_489 };
    const root = { name: 'all', value: 3, samples: 1, kind: 'root', truncated: true, children: [deeper] };
    const f = decodeFlame({ root, total: 3, max_depth: 256, deep_nodes: 99_489, pruned_nodes: 99_489 });
    expect(f.root.children[0]).toEqual({ name: '(deeper)', value: 3, samples: 1, kind: 'deeper', children: [], folded_frames: 99_489 });
    expect([f.max_depth, f.deep_nodes, f.pruned_nodes]).toEqual([256, 99_489, 99_489]);
  });

  it('maps unknown frame kinds to "unknown"', () => {
    const f = decodeFlame({ root: { name: 'all', value: 1, kind: 'martian', children: [] }, total: 1 });
    expect(f.root.kind).toBe('unknown');
  });

  it('names the offending node in errors, however deep', () => {
    const bad = { name: 'all', value: 3, children: [{ name: 'a', value: 1, children: [] }, { name: 'b', value: 2, children: [{ name: 7, value: 2 }] }] };
    expect(() => decodeFlame({ root: bad, total: 3 })).toThrow('flame.root.children[1].children[0].name: expected string, got number');
    expect(() => decodeFlame({ root: { ...bad, children: {} }, total: 3 })).toThrow('flame.root.children: expected array, got object');
    expect(() => decodeFlame({ root: { name: 'all', value: 'x' }, total: 3 })).toThrow('flame.root.value: expected number');
  });

  it('keeps children in order and copies only known fields', () => {
    const raw = { name: 'all', value: 3, samples: 3, kind: 'root', extra: '<b>', children: [{ name: 'a', value: 1 }, { name: 'b', value: 2, samples: null }] };
    const f = decodeFlame({ root: raw, total: 3 });
    expect(f.root).toEqual({
      name: 'all',
      value: 3,
      samples: 3,
      kind: 'root',
      children: [
        { name: 'a', value: 1, samples: 0, kind: 'unknown', children: [] },
        { name: 'b', value: 2, samples: 0, kind: 'unknown', children: [] },
      ],
    });
  });

});
