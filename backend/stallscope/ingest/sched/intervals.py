"""Per-thread scheduler state: switch pairs and wakeups in, OFF_CPU and ON_CPU intervals out.

A thread's off-CPU interval opens at the `sched_switch` that takes it off (its state and that
sample's stack are the blocking state and stack) and closes at the `sched_switch` that puts it back
(`next_pid`). Between the two, the first `sched_waking` (else `sched_wakeup`) for it names the waker:
the thread in whose context the wakeup ran, which for a wakeup from an interrupt (a timer, a disk
completion) is whatever the CPU was running, 0 for the idle task; `attrs["wakeup_in_interrupt"]`
says so when the wakeup's stack passes through an interrupt entry. An on-CPU interval runs from a
switch-in to the switch-out on the same CPU. A `syscalls:sys_enter_futex` wait just before a
blocking switch-out names the lock: `attrs["futex_uaddr"]`.

`duration_ns` is only ever what two recorded events measured. perf does not record every switch: a
thread that blocks on an idle CPU and is resumed there often has no wakeup and no switch-in at all
(8,188 of the 18,775 D waits of the fsync thread in the reference capture). Such an interval is
bounded by the next moment its thread is seen running (its next sample, an event it caused, or its
next switch-out): it keeps `duration_ns=None` and gets `attrs["inferred_duration_ns"]` (an upper
bound, relative so it survives clock alignment) and `attrs["seen_running_ns"]`. From that sighting
to the thread's next switch-out on the same CPU it was running: an ON_CPU interval with
`attrs["inferred_duration_ns"]` too. Intervals still open when the file ends have no bound. The
idle task (tid 0) is one per CPU and is never tracked. A thread whose last switch shows it exiting
(X, Z) opens no interval.

Memory is one entry per thread seen, whatever the capture's length.
"""

from __future__ import annotations

from dataclasses import dataclass

from stallscope.ingest.model import EventKind, ParseReport, Stack, TimedEvent
from stallscope.ingest.sched.args import EXIT_STATES, Switch, is_futex_wait_frame, off_cpu_state

OFF_CPU_NAME = "off-cpu"
ON_CPU_NAME = "on-cpu"
MAX_KNOWN_PIDS = 1_000_000


@dataclass(slots=True)
class _Off:
    line: int
    start_ns: int
    tid: int
    comm: str
    cpu: int | None
    state: str | None
    stack: Stack
    wakeup_ns: int | None = None
    waker_tid: int | None = None
    waker_comm: str | None = None
    wakeup_in_interrupt: bool = False
    stats: dict[str, object] | None = None
    futex_uaddr: int | None = None


@dataclass(slots=True)
class _On:
    line: int
    start_ns: int
    tid: int
    comm: str
    cpu: int | None
    inferred: bool = False
    """Opened where the thread was seen running, not at a recorded switch-in."""


@dataclass(slots=True)
class Counts:
    """What the intervals could not say, for the report's warnings."""

    seen_running: int = 0
    open_at_end: int = 0
    on_cpu_open_at_end: int = 0
    on_cpu_unended: int = 0
    on_cpu_inferred: int = 0
    exits: int = 0


class Tracker:
    """Feed samples' scheduler facts in time order; read finished intervals from `out`."""

    def __init__(self) -> None:
        self.out: list[TimedEvent] = []
        self.counts = Counts()
        self._off: dict[int, _Off] = {}
        self._on: dict[int, _On] = {}
        self._pids: dict[int, int] = {}
        self._futex: dict[int, int] = {}
        """tid -> the address of the futex wait it entered and has not blocked in yet."""

    def note_pid(self, tid: int | None, pid: int | None) -> None:
        if tid and pid is not None and self._pids.get(tid) != pid:
            if len(self._pids) >= MAX_KNOWN_PIDS:
                self._pids.clear()
            self._pids[tid] = pid

    def running(self, tid: int | None, time_ns: int) -> str | None:
        """`tid` is on a CPU at `time_ns`: an off-CPU interval no switch-in closed ends by then.

        Returns the closed interval's comm (the scheduler's name for the thread), if one closed.
        """
        if not tid:
            return None
        off = self._off.get(tid)
        if off is None or time_ns < off.start_ns:  # never before the switch-out it bounds
            return None
        del self._off[tid]
        self.counts.seen_running += 1
        event = self._off_event(off, None, None)
        event.attrs["seen_running_ns"] = time_ns
        event.attrs["inferred_duration_ns"] = time_ns - off.start_ns
        self.out.append(event)
        return off.comm

    def seen(self, line: int, time_ns: int, cpu: int | None, tid: int | None, comm: str) -> None:
        """A sample in `tid`'s context other than its switch-out: it runs on `cpu` from now on.

        With no switch-in recorded, the thread is taken to run from here to its next switch-out. The
        interval keeps the scheduler's name for the thread where it has one: perf's own comm can
        differ (`kworker/u8:1-ex` for the scheduler's `kworker/u8:1`).
        """
        if not tid:
            return
        known = self.running(tid, time_ns)
        if cpu is not None and tid not in self._on:
            self._on[tid] = _On(line, time_ns, tid, known or comm, cpu, inferred=True)

    def futex_wait(self, tid: int | None, uaddr: int) -> None:
        """`tid` entered a futex wait on `uaddr`: its next blocking switch-out is that wait."""
        if tid:
            self._futex[tid] = uaddr

    def futex_done(self, tid: int | None) -> None:
        """The futex call returned (`sys_exit_futex`): a later switch-out is not its wait."""
        if tid:
            self._futex.pop(tid, None)

    def switch(self, line: int, time_ns: int, cpu: int | None, stack: Stack, switch: Switch) -> None:
        """A switch with its arguments: `prev` goes off (with the sample's stack), `next` comes on."""
        prev, nxt = switch.prev_tid, switch.next_tid
        if prev:
            self.running(prev, time_ns)
            self._end_on(prev, time_ns, cpu)
            self._switched_out(line, time_ns, cpu, stack, prev, switch.prev_comm, switch.prev_state)
        if nxt:
            off = self._off.pop(nxt, None)
            if off is not None:
                self.out.append(self._off_event(off, time_ns - off.start_ns, cpu))
            earlier = self._on.pop(nxt, None)
            if earlier is not None:  # switched in twice: the switch-out between was not recorded
                self.counts.on_cpu_unended += 1
                self.out.append(self._on_event(earlier, None))
            self._on[nxt] = _On(line, time_ns, nxt, switch.next_comm, cpu)

    def switch_out_only(
        self, line: int, time_ns: int, cpu: int | None, stack: Stack, tid: int | None, comm: str
    ) -> None:
        """A switch without arguments (`perf script -F` without `trace`): only who went off, and when."""
        if tid:
            self.running(tid, time_ns)
            self._end_on(tid, time_ns, cpu)
            self._switched_out(line, time_ns, cpu, stack, tid, comm, None)

    def wakeup(
        self, time_ns: int, tid: int, waker_tid: int | None, waker_comm: str, in_interrupt: bool
    ) -> None:
        off = self._off.get(tid)
        if off is not None and off.wakeup_ns is None:
            off.wakeup_ns, off.waker_tid, off.waker_comm = time_ns, waker_tid, waker_comm
            off.wakeup_in_interrupt = in_interrupt

    def stat(self, tid: int, key: str, value_ns: int) -> None:
        """`sched_stat_sleep/iowait/blocked/wait` delays, when the kernel has them."""
        off = self._off.get(tid)
        if off is not None:
            if off.stats is None:
                off.stats = {}
            off.stats[key] = value_ns

    def finish(self) -> None:
        """Everything still open at the end of the file, unclosed."""
        for off in self._off.values():
            self.counts.open_at_end += 1
            self.out.append(self._off_event(off, None, None))
        for on in self._on.values():
            self.counts.on_cpu_open_at_end += 1
            self.out.append(self._on_event(on, None))
        self._off.clear()
        self._on.clear()

    # -- helpers ------------------------------------------------------------------------------------

    def _switched_out(
        self, line: int, time_ns: int, cpu: int | None, stack: Stack, tid: int, comm: str, state: str | None
    ) -> None:
        uaddr = self._futex.pop(tid, None)
        if state in EXIT_STATES:
            self.counts.exits += 1
            self._pids.pop(tid, None)
            return
        off = _Off(line, time_ns, tid, comm, cpu, None if state is None else off_cpu_state(state), stack)
        if uaddr is not None and _futex_block(off.state, stack):
            off.futex_uaddr = uaddr
        self._off[tid] = off

    def _end_on(self, tid: int, time_ns: int, cpu: int | None) -> None:
        on = self._on.pop(tid, None)
        if on is None:
            return  # switched in before the capture began, or the switch-in was not recorded
        if on.cpu != cpu:  # a thread leaves the CPU it runs on: events between were lost
            self.counts.on_cpu_unended += 1
            self.out.append(self._on_event(on, None))
            return
        if not on.inferred:
            self.out.append(self._on_event(on, time_ns - on.start_ns))
        elif time_ns > on.start_ns:
            self.counts.on_cpu_inferred += 1
            event = self._on_event(on, None)
            event.attrs["inferred_duration_ns"] = time_ns - on.start_ns
            self.out.append(event)

    def _off_event(self, off: _Off, duration_ns: int | None, resumed_cpu: int | None) -> TimedEvent:
        attrs: dict[str, object] = {}
        if off.wakeup_ns is not None:
            attrs["wakeup_ns"] = off.wakeup_ns
            # Relative, so it survives clock alignment and shifts: the split between blocked and
            # runnable (waiting for a CPU) time that thread-state breakdowns and latencies need.
            attrs["wakeup_delay_ns"] = off.wakeup_ns - off.start_ns
            attrs["waker_comm"] = off.waker_comm
            attrs["wakeup_in_interrupt"] = off.wakeup_in_interrupt
        if resumed_cpu is not None:
            attrs["resumed_cpu"] = resumed_cpu
        if off.stats:
            attrs.update(off.stats)
        if off.futex_uaddr is not None:
            attrs["futex_uaddr"] = hex(off.futex_uaddr)
        return TimedEvent(
            off.line,
            EventKind.OFF_CPU,
            OFF_CPU_NAME,
            off.start_ns,
            duration_ns,
            self._pids.get(off.tid),
            off.tid,
            off.comm,
            off.cpu,
            off.state,
            off.stack,
            off.waker_tid,
            None,
            None,
            attrs,
        )

    def _on_event(self, on: _On, duration_ns: int | None) -> TimedEvent:
        return TimedEvent(
            on.line,
            EventKind.ON_CPU,
            ON_CPU_NAME,
            on.start_ns,
            duration_ns,
            self._pids.get(on.tid),
            on.tid,
            on.comm,
            on.cpu,
        )


def _futex_block(state: str | None, stack: Stack) -> bool:
    """Whether a switch-out after a futex wait's entry is that wait: blocked, in futex code if known."""
    if state is None or state[:1] not in ("S", "D"):
        return False
    return not stack or any(is_futex_wait_frame(frame.name) for frame in stack)


def warn_counts(counts: Counts, report: ParseReport, with_args: bool) -> None:
    """One warning per kind of interval the file could not close."""
    unclosed = counts.seen_running + counts.open_at_end
    if unclosed:
        report.warn(
            0,
            f"{unclosed} off-CPU interval(s) unclosed (duration unknown): {counts.open_at_end} still "
            f"open when the file ends, {counts.seen_running} whose thread was next seen running with "
            "no switch-in recorded (their wait is taken to end there, marked inferred)",
        )
    on_unclosed = counts.on_cpu_open_at_end + counts.on_cpu_unended
    if with_args and on_unclosed:
        report.warn(
            0,
            f"{on_unclosed} on-CPU interval(s) unclosed: {counts.on_cpu_open_at_end} running when the "
            f"file ends, {counts.on_cpu_unended} whose switch-out was not recorded",
        )
