import { describe, expect, it } from 'vitest';
import { DecodeError, decodeCapture, decodeEventsPage, decodeFlame, decodeIncident, decodeMetricPoints, decodeNewToken } from './decode';

describe('decoders', () => {
  it('accept a valid incident and reject a wrong severity', () => {
    const raw = { id: 1, title: 't', severity: 'sev2', started_at: 'a', summary: null, created_at: 'b', capture_count: 2 };
    expect(decodeIncident(raw).summary).toBe('');
    expect(() => decodeIncident({ ...raw, severity: 'P1' })).toThrow(DecodeError);
  });

  it('read who may see an incident, team-wide when the server does not say', () => {
    const raw = { id: 1, title: 't', severity: 'sev2', started_at: 'a', summary: '', created_at: 'b', capture_count: 0 };
    expect(decodeIncident(raw)).toMatchObject({ visibility: 'team', members: [] });
    expect(decodeIncident({ ...raw, visibility: 'restricted', members: ['ana', 'bo'] })).toMatchObject({ visibility: 'restricted', members: ['ana', 'bo'] });
    expect(() => decodeIncident({ ...raw, visibility: 'secret' })).toThrow(/incident\.visibility/);
  });

  it('fill optional capture fields', () => {
    const c = decodeCapture({ id: 1, incident_id: 2, filename: 'f', status: 'queued', created_at: 'x' });
    expect(c.warnings).toEqual([]);
    expect(c.clock.mode).toBe('unknown');
    expect(c.host).toBeNull();
  });

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
    expect(decodeFlame({ root, total: 3 }).deep_nodes).toBe(0);
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

  it('decode the capture fields for kinds, counts and clock', () => {
    const c = decodeCapture({
      id: 1, incident_id: 2, filename: 'f', status: 'ready', created_at: 'x', kind: 'syscalls',
      record_counts: { events: 3, 'events.syscall': 3 }, meta: { commands: ['perf trace'] },
      clock: { mode: 'user-offset', note: 'n', offset_ns: 5, shift_ns: -300000000 },
    });
    expect(c.kind).toBe('syscalls');
    expect(c.record_counts['events.syscall']).toBe(3);
    expect(c.clock).toEqual({ mode: 'user-offset', note: 'n', offset_ns: 5, shift_ns: -300000000 });
    expect(() => decodeCapture({ id: 1, incident_id: 2, filename: 'f', status: 'ready', created_at: 'x', record_counts: { a: 'x' } })).toThrow(DecodeError);
  });

  it('keep unclosed events unclosed (null duration, not 0)', () => {
    const page = decodeEventsPage({ total: 1, events: [{ capture_id: 1, ts: 't', duration_ns: null, kind: 'syscall', name: 'read' }] });
    expect(page.events[0]?.duration_ns).toBeNull();
    expect(page.events[0]?.args).toBeNull();
  });

  it('decode metric points and new tokens', () => {
    expect(decodeMetricPoints({ series_id: 1, bucket_ns: 5, points: [{ ts: 't', avg: 1, min: 0, max: 2, count: 3 }] }).points[0]?.max).toBe(2);
    expect(() => decodeNewToken({ id: 1, name: 'ci', prefix: 'p', created_at: 'c' })).toThrow(DecodeError);
  });
});
