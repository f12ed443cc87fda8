"""`perf script` output of scheduler tracepoints to OFF_CPU and ON_CPU intervals.

Built on the `perf_script` parser: it reads the text, names the frames and keeps each sample's
tracepoint arguments; this module only reads those arguments and follows each thread through its
switches (see `intervals`). Samples of other events in the same file (`cpu-clock` beside the
`sched:` tracepoints) pass through unchanged, and tell that their thread was running; the `sched:`
samples themselves are consumed. `syscalls:sys_enter_futex` samples (record them beside the `sched:`
events) also pass through, and name the lock of the futex wait that follows.

Without tracepoint arguments (`perf script -F comm,pid,tid,cpu,time,event,...` with no `trace`
field) a switch only says which thread went off its CPU, when, and with which stack. The thread
switched in, the state it left in (S, D, R...) and the woken thread of a wakeup are not printed, so
those intervals have no state, no end (`duration_ns=None`, bounded by `attrs.inferred_duration_ns`
where the thread shows up again), no waker, and on-CPU intervals only from a sighting of the thread
to its next switch-out (inferred). A warning says so.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import BinaryIO

from stallscope.ingest.model import ParseReport, Record, Sample, Stack
from stallscope.ingest.perf_script import parse_perf_script
from stallscope.ingest.sched.args import (
    Switch,
    in_interrupt_context,
    read_futex,
    read_stat,
    read_switch,
    read_wakeup,
)
from stallscope.ingest.sched.intervals import Tracker, warn_counts

SWITCH = "sched:sched_switch"
FUTEX_ENTER = "syscalls:sys_enter_futex"
FUTEX_EXIT = "syscalls:sys_exit_futex"
WAKEUPS = frozenset({"sched:sched_waking", "sched:sched_wakeup"})
STATS = {
    "sched:sched_stat_sleep": "sleep_ns",
    "sched:sched_stat_iowait": "iowait_ns",
    "sched:sched_stat_blocked": "blocked_ns",
    "sched:sched_stat_wait": "wait_ns",
}
MAX_COMPLAINTS = 10
MAX_REMEMBERED_STACKS = 250_000
"""Per-sample warnings about arguments or times kept; the counts say the rest."""
NO_ARGS_WARNING = (
    "sched_switch samples carry no tracepoint arguments (perf script -F without `trace`): the thread "
    "switched in, the state left in and the woken thread are unknown, so off-CPU intervals have no "
    "state, no duration and no waker, and on-CPU intervals only from a sighting to a switch-out; "
    "run `perf script` with "
    "its default fields (or add `-F +trace`) for full intervals"
)


def parse_sched(stream: BinaryIO, report: ParseReport) -> Iterator[Record]:
    """Yield intervals (and the samples of non-scheduler events) from `perf script` text."""
    return _Reader(report).run(stream)


class _Reader:
    def __init__(self, report: ParseReport) -> None:
        self.report = report
        self.tracker = Tracker()
        # By id(stack), holding the stack so its id stays its own; capped, as the importer's table is.
        self._interrupt_stacks: dict[int, tuple[Stack, bool]] = {}
        self._last_switch: dict[int | None, tuple[int, int | None, Switch | None]] = {}
        self._with_args = self._without_args = self._repeated = 0
        self._complaints = 0

    def run(self, stream: BinaryIO) -> Iterator[Record]:
        tracker, out = self.tracker, self.tracker.out
        for sample in parse_perf_script(stream, self.report):
            time_ns = sample.time_ns
            if not sample.event.startswith("sched:"):
                tracker.note_pid(sample.tid, sample.pid)
                if time_ns is not None:  # sampled in its context: on a CPU
                    tracker.seen(sample.line, time_ns, sample.cpu, sample.tid, sample.comm)
                if sample.event == FUTEX_ENTER and sample.trace_args:
                    call = read_futex(sample.trace_args)
                    if call is not None and call.waits:
                        tracker.futex_wait(sample.tid, call.uaddr)
                elif sample.event == FUTEX_EXIT:
                    tracker.futex_done(sample.tid)
                yield from out
                out.clear()
                yield sample
                continue
            if time_ns is None:
                self._complain(sample.line, "scheduler sample without a timestamp, ignored")
                continue
            tracker.note_pid(sample.tid, sample.pid)
            if sample.event == SWITCH:
                self._switch(sample, time_ns)
            else:
                tracker.seen(sample.line, time_ns, sample.cpu, sample.tid, sample.comm)
                if sample.trace_args:
                    self._other(sample, sample.trace_args, time_ns)
            if out:
                yield from out
                out.clear()
        tracker.finish()
        yield from out
        out.clear()
        self._warnings()

    def _switch(self, sample: Sample, time_ns: int) -> None:
        args = sample.trace_args
        switch = read_switch(args) if args else None
        seen = (time_ns, sample.tid, switch)
        if self._last_switch.get(sample.cpu) == seen:
            self._repeated += 1  # perf occasionally writes a record twice
            return
        self._last_switch[sample.cpu] = seen
        if switch is not None:
            self._with_args += 1
            self.tracker.switch(sample.line, time_ns, sample.cpu, sample.stack, switch)
            return
        self._without_args += 1
        if args:
            self._complain(sample.line, f"sched_switch arguments not understood: {args[:120]!r}")
        self.tracker.switch_out_only(sample.line, time_ns, sample.cpu, sample.stack, sample.tid, sample.comm)

    def _other(self, sample: Sample, args: str, time_ns: int) -> None:
        if sample.event in WAKEUPS:
            wakeup = read_wakeup(args)
            if wakeup is not None:
                stack = sample.stack
                known = self._interrupt_stacks.get(id(stack))
                if known is not None and known[0] is stack:
                    in_interrupt = known[1]
                else:
                    if len(self._interrupt_stacks) >= MAX_REMEMBERED_STACKS:
                        self._interrupt_stacks.clear()
                    in_interrupt = in_interrupt_context(stack)
                    self._interrupt_stacks[id(stack)] = (stack, in_interrupt)
                self.tracker.wakeup(time_ns, wakeup.tid, sample.tid, sample.comm, in_interrupt)
            return
        key = STATS.get(sample.event)
        stat = read_stat(args) if key is not None else None
        if key is not None and stat is not None:
            self.tracker.stat(stat[0], key, stat[1])

    def _complain(self, line: int, message: str) -> None:
        if self._complaints < MAX_COMPLAINTS:
            self._complaints += 1
            self.report.warn(line, message)

    def _warnings(self) -> None:
        report = self.report
        if self._without_args:
            prefix = (
                f"{self._without_args} sched_switch sample(s) without arguments: " if self._with_args else ""
            )
            report.warn(0, prefix + NO_ARGS_WARNING)
        if self._repeated:
            report.warn(
                0,
                f"{self._repeated} sched_switch sample(s) repeated exactly (same CPU, time and threads) "
                "were ignored",
            )
        warn_counts(self.tracker.counts, report, self._with_args > 0)
