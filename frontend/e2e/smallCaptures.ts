/**
 * Small captures written here, for specs about the console around the views rather than the views'
 * numbers: CPU samples (`perf script`) and a scheduler trace, both on the wall clock from T0.
 */

/** 2025-11-21T08:00:00Z: where perf time PERF_BASE_S lands with `offset` below. */
export const T0 = 1_763_712_000;
const PERF_BASE_S = 1000;
/** The upload offset that puts perf time PERF_BASE_S at T0. */
export const OFFSET = `${T0 - PERF_BASE_S}s`;

/** `perf script` text: every second for `seconds`, a burst of `flush` then some `work`, on pid 42. */
export function cpuSamples(seconds = 5): Buffer {
  const sample = (t: number, frames: string[]) =>
    `app 42/42 [000] ${t.toFixed(6)}: 1000000 cpu-clock:\n` +
    frames.map((f, i) => `\t    ${(0x1000 + i).toString(16)} ${f} (/usr/bin/app)`).join('\n') +
    '\n\n';
  let text = '';
  for (let s = 0; s < seconds; s += 1) {
    for (let i = 0; i < 10; i += 1) text += sample(PERF_BASE_S + s + i * 0.001, ['flush', 'tick', 'main']);
    for (const ms of [300, 600, 900]) text += sample(PERF_BASE_S + s + ms / 1000, ['work', 'main']);
  }
  return Buffer.from(text);
}

/** `perf script` of `sched:sched_switch` with stacks: a writer blocked in D, a reader sleeping in S. */
export function schedSwitches(seconds = 5): Buffer {
  const sw = (comm: string, tid: number, t: number, state: string, next: string, nextTid: number, frames: string[]) =>
    `${comm} ${tid}/${tid} [000] ${t.toFixed(6)}: sched:sched_switch: prev_comm=${comm} prev_pid=${tid} prev_prio=120 ` +
    `prev_state=${state} ==> next_comm=${next} next_pid=${nextTid} next_prio=120\n` +
    frames.map((f, i) => `\tffffffff81${i.toString(16).padStart(6, '0')} ${f}+0x1 ([kernel.kallsyms])`).join('\n') +
    '\n\n';
  const io = ['__schedule', 'schedule', 'io_schedule', 'do_fsync'];
  const sleep = ['__schedule', 'schedule', 'futex_wait'];
  let text = '';
  for (let i = 0; i < seconds * 10; i += 1) {
    const t = PERF_BASE_S + i * 0.1;
    text += sw('writer', 100, t, 'D', 'reader', 200, io);
    text += sw('reader', 200, t + 0.04, 'S', 'writer', 100, sleep);
  }
  return Buffer.from(text);
}
