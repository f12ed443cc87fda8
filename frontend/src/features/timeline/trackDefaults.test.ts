import { describe, expect, it } from 'vitest';
import type { CpuTrackInfo, HostTracks, MetricTrackInfo, TrackListing } from './api';
import { defaultTrackIds, orderedTracks, unknownTracks } from './trackDefaults';

const metric = (host: string, name: string, system: boolean, labels: Record<string, string> = {}): MetricTrackInfo => ({
  type: 'metric',
  id: `m:${host}:${name}${Object.keys(labels).length ? JSON.stringify(labels) : ''}`,
  host,
  label: name,
  name,
  labels,
  unit: null,
  system,
  points: 10,
  min: 0,
  max: 1,
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
  it('picks CPU density, off-CPU, syscall and fault latency, free memory and application metrics per host', () => {
    expect(defaultTrackIds(listing)).toEqual([
      'cpu:db1:cpu-clock',
      'offcpu:db1',
      'ev:db1:syscall',
      'ev:db1:fault',
      'm:db1:mem.MemFree',
      'm:db1:mem.MemAvailable',
      'm:db1:naks',
      'm:db1:socket_buffer_bytes',
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
