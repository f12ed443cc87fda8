import { describe, expect, it } from 'vitest';
import type { CpuTrackInfo, HostTracks, MetricTrackInfo, TrackListing } from './api';
import {
  defaultTrackIds,
  MAX_DEFAULT_METRICS,
  MAX_REQUEST_TRACKS,
  metricCandidates,
  metricChange,
  moreMetrics,
  orderedTracks,
  unknownTracks,
} from './trackDefaults';

const metric = (
  host: string,
  name: string,
  system: boolean,
  labels: Record<string, string> = {},
  [min, max]: [number | null, number | null] = [0, 1],
  points = 10,
): MetricTrackInfo => ({
  type: 'metric',
  id: `m:${host}:${name}${Object.keys(labels).length ? JSON.stringify(labels) : ''}`,
  host,
  label: name,
  name,
  labels,
  unit: null,
  system,
  points,
  min,
  max,
});

const db1: HostTracks = {
  host: 'db1',
  unaligned: false,
  captures: [],
  tracks: [
    { type: 'cpu', id: 'cpu:db1:page-faults', host: 'db1', label: 'faults', event: 'page-faults', samples: 10, top: [], origin: 'cpu', state: null },
    { type: 'cpu', id: 'cpu:db1:cpu-clock', host: 'db1', label: 'cpu', event: 'cpu-clock', samples: 1000, top: [], origin: 'cpu', state: null },
    { type: 'offcpu', id: 'offcpu:db1', host: 'db1', label: 'off', intervals: 5, unclosed: 0, states: [] },
    { type: 'events', id: 'ev:db1:syscall', host: 'db1', label: 'sys', kind: 'syscall', name: null, count: 5, names: [] },
    { type: 'events', id: 'ev:db1:syscall:futex', host: 'db1', label: 'futex', kind: 'syscall', name: 'futex', count: 5, names: [] },
    { type: 'events', id: 'ev:db1:tracepoint', host: 'db1', label: 'tp', kind: 'tracepoint', name: null, count: 5, names: [] },
    { type: 'events', id: 'ev:db1:fault', host: 'db1', label: 'fault', kind: 'fault', name: null, count: 5, names: [] },
    metric('db1', 'naks', false),
    metric('db1', 'socket_buffer_bytes', false),
    metric('db1', 'cpu.user', true, { cpu: 'all' }),
    metric('db1', 'mem.MemAvailable', true),
    metric('db1', 'mem.Cached', true),
    metric('db1', 'mem.MemFree', true),
  ],
};

const listing: TrackListing = {
  incident: 1,
  time_start: null,
  time_end: null,
  hosts: [db1, { host: 'web1', unaligned: true, captures: [], tracks: [metric('web1', 'vm.free', true), metric('web1', 'latency_ms', false)] }],
};

describe('default tracks', () => {
  it('picks CPU density, off-CPU, syscall and fault latency per host, and free memory and application metrics', () => {
    expect(defaultTrackIds(listing)).toEqual([
      'cpu:db1:cpu-clock',
      'offcpu:db1',
      'ev:db1:syscall',
      'ev:db1:fault',
      'm:db1:naks',
      'm:db1:socket_buffer_bytes',
      'm:db1:mem.MemAvailable',
      'm:db1:mem.MemFree',
      'm:web1:vm.free',
      'm:web1:latency_ms',
    ]);
  });

  it('shows the D state of /proc stack samples, or every dump when they name no state, never instead of CPU samples', () => {
    const stacks = (host: string, event: string, state: string | null, samples: number): CpuTrackInfo => ({
      type: 'cpu',
      id: `cpu:${host}:${event}`,
      host,
      label: event,
      event,
      samples,
      top: [],
      origin: 'proc-stack',
      state,
    });
    const hosts: HostTracks[] = [
      {
        host: 'db2',
        unaligned: false,
        captures: [],
        tracks: [
          { type: 'cpu', id: 'cpu:db2:cpu-clock', host: 'db2', label: 'cpu', event: 'cpu-clock', samples: 10, top: [], origin: 'cpu', state: null },
          stacks('db2', 'proc-stack:D', 'D', 13),
          stacks('db2', 'proc-stack:S', 'S', 480),
        ],
      },
      { host: 'db3', unaligned: false, captures: [], tracks: [stacks('db3', 'proc-stack', null, 132)] },
    ];
    expect(defaultTrackIds({ incident: 1, time_start: null, time_end: null, hosts })).toEqual([
      'cpu:db2:cpu-clock',
      'cpu:db2:proc-stack:D',
      'cpu:db3:proc-stack',
    ]);
  });

  it('keeps the listing order whatever order the URL has, and reports ids it does not know', () => {
    expect(orderedTracks(listing, ['m:web1:latency_ms', 'offcpu:db1']).map((t) => t.id)).toEqual(['offcpu:db1', 'm:web1:latency_ms']);
    expect(unknownTracks(listing, ['offcpu:db1', 'cpu:gone:cpu-clock'])).toEqual(['cpu:gone:cpu-clock']);
  });
});

/** Thirty application series on one host: a counter, constants, and gauges moving more and more (gauge_00 not at all). */
function imported(host: string): HostTracks {
  const gauges = Array.from({ length: 26 }, (_, i) => metric(host, `gauge_${String(i).padStart(2, '0')}`, false, {}, [100 - i * 3, 100]));
  return {
    host,
    unaligned: false,
    captures: [],
    tracks: [
      { type: 'offcpu', id: `offcpu:${host}`, host, label: 'off', intervals: 5, unclosed: 0, states: [] },
      metric(host, 'requests_total', false, {}, [0, 90_000]),
      metric(host, 'build_info', false, { version: '1.2' }, [1, 1]),
      metric(host, 'one_point', false, {}, [3, 3], 1),
      metric(host, 'no_points', false, {}, [null, null], 0),
      ...gauges,
      metric(host, 'cpu.user', true, { cpu: '3' }, [0, 100]),
      metric(host, 'mem.MemFree', true, {}, [1_000, 1_000]),
    ],
  };
}

describe('default metric tracks', () => {
  it('measure how much a series moves relative to its size, 0 when it never moves', () => {
    expect(metricChange(metric('h', 'a', false, {}, [50, 100]))).toBe(0.5);
    expect(metricChange(metric('h', 'a', false, {}, [-5, 5]))).toBe(2);
    expect(metricChange(metric('h', 'a', false, {}, [0, 0]))).toBe(0);
    expect(metricChange(metric('h', 'a', false, {}, [7, 7]))).toBe(0);
    expect(metricChange(metric('h', 'a', false, {}, [1, 9], 1))).toBe(0);
    expect(metricChange(metric('h', 'a', false, {}, [null, null], 0))).toBe(0);
  });

  it('rank the series that move most first, counters after them, and leave out the ones that never move', () => {
    const ranked = metricCandidates(imported('db')).map((m) => m.name);
    expect(ranked.slice(0, 3)).toEqual(['gauge_25', 'gauge_24', 'gauge_23']);
    expect(ranked.at(-1)).toBe('requests_total');
    expect(ranked).toHaveLength(26);
    for (const left of ['gauge_00', 'build_info', 'one_point', 'no_points', 'cpu.user', 'mem.MemFree']) expect(ranked).not.toContain(left);
  });

  it('show at most a handful over the whole incident, taking each host in turn', () => {
    const two: TrackListing = { incident: 1, time_start: null, time_end: null, hosts: [imported('db'), imported('web')] };
    const ids = defaultTrackIds(two);
    const metrics = ids.filter((id) => id.startsWith('m:'));
    expect(metrics).toHaveLength(MAX_DEFAULT_METRICS);
    expect(metrics.filter((id) => id.startsWith('m:db:'))).toEqual(['m:db:gauge_22', 'm:db:gauge_23', 'm:db:gauge_24', 'm:db:gauge_25']);
    expect(metrics.filter((id) => id.startsWith('m:web:'))).toHaveLength(4);
    expect(ids.filter((id) => !id.startsWith('m:'))).toEqual(['offcpu:db', 'offcpu:web']);
  });

  it('leave the rest one step away: every other application series and free memory, as many as a request may draw', () => {
    const one: TrackListing = { incident: 1, time_start: null, time_end: null, hosts: [imported('db')] };
    const { hidden, withThem } = moreMetrics(one);
    expect(hidden.map((m) => m.name)).toContain('build_info');
    expect(hidden.map((m) => m.name)).toContain('mem.MemFree');
    expect(hidden.map((m) => m.name)).not.toContain('cpu.user');
    expect(hidden).toHaveLength(30 + 1 - MAX_DEFAULT_METRICS);
    expect(withThem).toHaveLength(1 + 30 + 1);
    expect(withThem).toEqual(expect.arrayContaining(defaultTrackIds(one)));

    const many: TrackListing = { incident: 1, time_start: null, time_end: null, hosts: ['a', 'b', 'c', 'd'].map(imported) };
    const capped = moreMetrics(many);
    expect(capped.hidden).toHaveLength(4 * 31 - MAX_DEFAULT_METRICS);
    expect(capped.withThem).toHaveLength(MAX_REQUEST_TRACKS);
  });
});
