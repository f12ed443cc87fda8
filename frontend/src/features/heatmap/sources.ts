/**
 * Which captures can feed which stream, from the record counts every parsed capture carries, so
 * the stream picker offers only what is there and the default captures are the ones with data.
 */
import type { Capture } from '../../api/types';
import { STREAMS, type HeatmapStream, type StreamsResponse } from './api';

export interface StreamSource {
  stream: HeatmapStream;
  records: number;
  captures: number[];
}

const countKey = (stream: HeatmapStream): string => (stream === 'samples' ? 'samples' : `events.${stream}`);

export const isParsed = (c: Capture): boolean => c.status === 'ready' || c.status === 'partial';

/** Streams present in parsed captures, busiest first, each with the captures that hold it. */
export function streamSources(captures: Capture[]): StreamSource[] {
  const sources: StreamSource[] = [];
  for (const stream of STREAMS) {
    const holding = captures.filter((c) => isParsed(c) && (c.record_counts[countKey(stream)] ?? 0) > 0);
    if (holding.length === 0) continue;
    sources.push({
      stream,
      records: holding.reduce((n, c) => n + (c.record_counts[countKey(stream)] ?? 0), 0),
      captures: holding.map((c) => c.id),
    });
  }
  return sources.sort((a, b) => b.records - a.records);
}

/** The same, for captures named in the URL without their incident: every one counts for each stream. */
export function sourcesFromStreams(streams: StreamsResponse, captures: number[]): StreamSource[] {
  return streams.streams.map((s) => ({ stream: s.stream, records: s.count, captures }));
}

/** The captures to draw: the ones chosen in the URL, else every capture that has the stream. */
export function capturesToShow(chosen: number[], sources: StreamSource[], stream: HeatmapStream | null): number[] {
  if (chosen.length > 0) return chosen;
  return sources.find((s) => s.stream === stream)?.captures ?? [];
}

export const STREAM_LABELS: Record<HeatmapStream, string> = {
  samples: 'CPU samples',
  'off-cpu': 'Off-CPU intervals',
  'on-cpu': 'On-CPU intervals',
  syscall: 'Syscalls',
  fault: 'Faults',
  function: 'Function timings',
  tracepoint: 'Tracepoints',
};

/** What to record to get a stream, for empty states. */
export const STREAM_HINTS: Record<HeatmapStream, string> = {
  samples: 'No CPU samples in these captures — record with perf record -g (or the collector’s --cpu) and upload the perf script output.',
  'off-cpu':
    'No off-CPU intervals in these captures — record scheduler switches with perf record -e sched:sched_switch -g (or the collector’s --offcpu).',
  'on-cpu': 'No on-CPU intervals in these captures — they come with off-CPU ones from scheduler switches (perf record -e sched:sched_switch).',
  syscall: 'No syscall events in these captures — record with perf trace or the collector’s --syscalls.',
  fault: 'No fault events in these captures — record them with the collector’s --faults.',
  function: 'No function timings in these captures — record with ftrace’s function_graph tracer, systemtap or DTrace.',
  tracepoint: 'No tracepoint events in these captures — record them with perf record -e subsystem:event or trace-cmd.',
};
