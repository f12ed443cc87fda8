/** What each flame-graph source is called and what it is made from, for titles and empty states. */
import type { FlameSource } from './urlState';

export interface SourceWords {
  /** The graph's name in the breadcrumb. */
  graph: string;
  /** What to upload when no capture of the selection has this data. */
  needs: string;
  /** The empty state's title when filters leave nothing. */
  none: string;
}

export const SOURCE_WORDS: Record<FlameSource, SourceWords> = {
  cpu: {
    graph: 'flame graph',
    needs: 'Flame graphs need CPU samples (perf script output, collapsed stacks or the collector’s --cpu). ',
    none: 'No samples match these filters',
  },
  'off-cpu': {
    graph: 'off-CPU flame graph',
    needs: 'Off-CPU flame graphs need a scheduler capture (perf sched events or the collector’s --offcpu). ',
    none: 'No off-CPU intervals match these filters',
  },
  'proc-stack': {
    graph: 'kernel-stack flame graph',
    needs:
      'Kernel-stack flame graphs need /proc stack dumps (the collector’s --proc-stacks, or a loop printing a “# ts_us=… tid=… comm=…” line before each /proc/PID/task/TID/stack). ',
    none: 'No stack dumps match these filters',
  },
};
