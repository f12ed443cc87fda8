import { describe, expect, it } from 'vitest';
import { base } from '../captures/captureFixture';
import type { Capture } from '../../api/types';
import { capturesToShow, sourcesFromStreams, streamSources } from './sources';

const capture = (id: number, counts: Record<string, number>, status: Capture['status'] = 'ready'): Capture => ({
  ...base,
  id,
  status,
  record_counts: counts,
});

describe('which captures feed which stream', () => {
  const captures = [
    capture(1, { samples: 500 }),
    capture(2, { events: 900, 'events.syscall': 900 }),
    capture(3, { samples: 100, events: 40, 'events.off-cpu': 40 }),
    capture(4, { samples: 10_000 }, 'parsing'),
  ];

  it('lists streams busiest first with their captures, ignoring unparsed ones', () => {
    expect(streamSources(captures)).toEqual([
      { stream: 'syscall', records: 900, captures: [2] },
      { stream: 'samples', records: 600, captures: [1, 3] },
      { stream: 'off-cpu', records: 40, captures: [3] },
    ]);
  });

  it('draws the chosen captures, else every one with the stream', () => {
    const sources = streamSources(captures);
    expect(capturesToShow([], sources, 'samples')).toEqual([1, 3]);
    expect(capturesToShow([2], sources, 'samples')).toEqual([2]);
    expect(capturesToShow([], sources, 'fault')).toEqual([]);
  });

  it('falls back to the streams endpoint for captures named without their incident', () => {
    const sources = sourcesFromStreams(
      { streams: [{ stream: 'samples', count: 5, unit: 'samples', durations: true, names: [] }], default: 'samples', wall_clock: true, notes: [] },
      [8, 9],
    );
    expect(sources).toEqual([{ stream: 'samples', records: 5, captures: [8, 9] }]);
  });
});
