import { describe, expect, it } from 'vitest';
import { EMPTY_SELECTION } from '../../shared/selection';
import { base } from './captureFixture';
import { selectedCaptureIds } from './selectionCaptures';

describe('selectedCaptureIds', () => {
  const cpu = { ...base, id: 1, host: 'a', sample_count: 10 };
  const sched = { ...base, id: 2, host: 'b', sample_count: 0, record_counts: { 'events.off-cpu': 5 } };
  const parsing = { ...base, id: 3, host: 'a', sample_count: 10, status: 'parsing' as const };

  it('keeps the captures the URL names', () => {
    expect(selectedCaptureIds([cpu], { ...EMPTY_SELECTION, captures: [9] }, 'samples')).toEqual([9]);
  });

  it('takes the parsed captures holding the content, on the selected hosts', () => {
    expect(selectedCaptureIds([sched, cpu, parsing], EMPTY_SELECTION, 'samples')).toEqual([1]);
    expect(selectedCaptureIds([sched, cpu, parsing], EMPTY_SELECTION, 'off-cpu')).toEqual([2]);
    expect(selectedCaptureIds([sched, cpu], { ...EMPTY_SELECTION, hosts: ['b'] }, 'any')).toEqual([2]);
  });
});
