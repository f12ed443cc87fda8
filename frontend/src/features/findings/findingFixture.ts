/** Findings for unit tests, as the server sends them. */
import type { Finding } from './api';

export const rawFinding: Finding = {
  id: 'mmap-lock-contention',
  title: 'mmap_lock contention',
  severity: 'critical',
  confidence: 0.85,
  summary: '16 threads spend 41.2% of their time blocked on mmap_lock.',
  hosts: ['db-1'],
  threads: [{ host: 'db-1', pid: 10, tid: 11, comm: 'query-1' }],
  time_range_ns: [1764100000000000000, 1764100005000000000],
  capture_ids: [3, 4],
  evidence: [
    {
      label: 'Blocked on mmap_lock',
      text: "41.2% of the threads' time (2.31 s)",
      value: 0.412,
      unit: 'share',
      baseline: 0.0,
      view: '/flame?hosts=db-1&incident=1&q=rwsem_down&source=off-cpu',
    },
    { label: 'Called from', text: 'mmap (80%)', value: null, unit: null, baseline: null, view: null },
  ],
  baseline: 'Absent on the baseline (0.0% there).',
  next_checks: ['Which calls take it for writing.'],
  remediation: 'Take mmap/munmap out of hot loops.',
  references: ['https://lwn.net/Articles/893906/'],
  score: 0.41,
  view: '/flame?hosts=db-1&incident=1&q=rwsem_down&source=off-cpu',
  verdict: null,
};

/** The finding with some fields replaced. */
export const finding = (patch: Partial<Finding> = {}): Finding => ({ ...rawFinding, ...patch });
