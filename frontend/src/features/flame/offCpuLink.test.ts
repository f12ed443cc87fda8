import { describe, expect, it } from 'vitest';
import type { Capture } from '../../api/types';
import { base } from '../captures/captureFixture';
import { offCpuLink } from './offCpuLink';
import { decodeFlameState, EMPTY_VIEW } from './urlState';

const cpu: Capture = { ...base, id: 1, filename: 'cpu.txt' };
const sched: Capture = {
  ...base,
  id: 2,
  filename: 'sched.txt',
  sample_count: 0,
  events: [],
  record_counts: { 'events.off-cpu': 300, 'events.on-cpu': 300 },
};
const failed: Capture = { ...sched, id: 3, status: 'failed' };

const target = (href: string | null) => (href === null ? null : decodeFlameState(href.slice(href.indexOf('?') + 1)).state);

describe('the off-CPU way out of an empty CPU flame graph', () => {
  it('leads a scheduler capture to its off-CPU flame graph, filters kept', () => {
    const view = { ...EMPTY_VIEW, incident: 7, captures: [2], pid: 90, search: 'x', zoom: ['main'] };
    const to = target(offCpuLink(view, [cpu, sched]));
    expect(to).toMatchObject({ source: 'off-cpu', incident: 7, captures: [2], pid: 90, search: '', zoom: [] });
  });

  it('names only the chosen captures that hold off-CPU time', () => {
    const to = target(offCpuLink({ ...EMPTY_VIEW, incident: 7, captures: [1, 2] }, [cpu, sched]));
    expect(to?.captures).toEqual([2]);
  });

  it('keeps "every capture" of an incident when the view named none', () => {
    const to = target(offCpuLink({ ...EMPTY_VIEW, incident: 7 }, [cpu, sched]));
    expect(to).toMatchObject({ source: 'off-cpu', captures: [] });
  });

  it('offers nothing when no chosen capture holds off-CPU time, or outside the CPU flame graph', () => {
    expect(offCpuLink({ ...EMPTY_VIEW, incident: 7, captures: [1] }, [cpu, sched])).toBeNull();
    expect(offCpuLink({ ...EMPTY_VIEW, incident: 7, captures: [3] }, [cpu, failed])).toBeNull();
    expect(offCpuLink({ ...EMPTY_VIEW, incident: 7, source: 'off-cpu' }, [sched])).toBeNull();
    expect(offCpuLink({ ...EMPTY_VIEW, incident: 7 }, undefined)).toBeNull();
  });
});
