"""Where each thread's time went: running, runnable, sleeping, in uninterruptible wait, or unknown.

Two sources, one result. Scheduler intervals give exact times, read once into a line per thread
(`thread_timeline`): blocked until the wakeup, runnable after it, running between switch-in and
switch-out; waits no event closed end where the thread was next seen running, marked inferred.
The /proc sampler gives a state per tick instead: shares are tick counts, times are ticks times the
interval, and it cannot tell running from runnable (both read R).

A thread's wall time runs from its first observation to its last inside the window; what its line
leaves uncovered (intervals still open when the capture ended, lost events) is `unknown`, never
guessed, so each thread's states add up to its wall time. The same line gives the heaviest blocking
stacks per state and the thread's futex waits by lock.

Pure: the API feeds it rows from the database, `stallscope threads` records from a local file; the
stored whole-capture totals are its output, and a thread's strip is drawn from the same line.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass, field

from stallscope.analysis.thread_timeline import (
    BLOCKED,
    NO_REF,
    OTHER,
    RUNNABLE,
    RUNNING,
    SLEEPING,
    STATES,
    UNINTERRUPTIBLE,
    UNKNOWN,
    WHOLE,
    Lane,
    Piece,
    Timeline,
    Window,
    state_category,
)

__all__ = [
    "OTHER",
    "RUNNABLE",
    "RUNNING",
    "SLEEPING",
    "STATES",
    "UNINTERRUPTIBLE",
    "UNKNOWN",
    "Window",
    "state_category",
]

LATENCY_PERCENTILES = (50, 90, 99)
MAX_WAKERS = 5
TOP_STACKS = 5
"""Blocking stacks kept per state, heaviest first: the longest alone hides a lock behind a timer."""
MAX_LOCKS_PER_THREAD = 10

ThreadKey = tuple[int | None, int, str]
"""(pid, tid, comm): a thread keeps its tid across exec, under a new comm, so comm is part of it."""

LockKey = tuple[str, Hashable]
"""("address", "0x55daf0cfb100") when the capture named the futex, else ("site", blocking stack)."""

FutexStack = Callable[[Hashable], bool]
"""Whether a blocking stack is a futex wait (callers know how to read their stacks' frames)."""


@dataclass(frozen=True, slots=True)
class SchedInterval:
    """One scheduler interval, as every caller hands it in (a stored row or a parsed record)."""

    on_cpu: bool
    pid: int | None
    tid: int
    comm: str
    start_ns: int
    duration_ns: int | None
    """Measured by two recorded events; None when no event closed it."""
    inferred_ns: int | None = None
    """Where no event closed it: until the thread was next seen running (an upper bound)."""
    state: str | None = None
    wakeup_delay_ns: int | None = None
    waker: tuple[int | None, str] | None = None
    stack: Hashable | None = None
    futex: str | None = None
    """The futex address the wait was on, when the capture recorded it."""


@dataclass(slots=True)
class Latency:
    """How long the thread waited for a CPU once runnable, per wait (nanoseconds)."""

    count: int = 0
    p50_ns: int | None = None
    p90_ns: int | None = None
    p99_ns: int | None = None
    max_ns: int | None = None


@dataclass(slots=True)
class TopStack:
    """A blocking stack's part of a thread's time in one state."""

    stack: Hashable
    ns: int
    """Total time in the state with this stack."""
    share: float
    """Of the thread's time in that state."""
    count: int = 1
    """Waits (pieces of the line) with this stack."""
    longest_ns: int = 0


@dataclass(slots=True)
class LockWait:
    """A thread's waits on one futex (by address, or by blocking stack when no address is known)."""

    lock: LockKey
    count: int
    total_ns: int
    longest_ns: int
    inferred_ns: int = 0
    """Of `total_ns`, waits whose end was inferred."""


@dataclass(slots=True)
class ThreadStates:
    pid: int | None
    tid: int
    comm: str
    wall_ns: int
    state_ns: dict[str, int]
    """Every name in STATES; they add up to `wall_ns`."""
    other_states: dict[str, int]
    """`other` by kernel letter (T, t, I, P, …)."""
    intervals: int
    latency: Latency
    wakers: list[tuple[int | None, str, int]]
    """(tid, comm, wakeups), most frequent first; tid 0 is an interrupt on an idle CPU."""
    top_stacks: dict[str, list[TopStack]]
    """Per state with stacks (sleeping, uninterruptible, runnable when preempted), heaviest first."""
    inferred_ns: dict[str, int] = field(default_factory=lambda: dict.fromkeys(STATES, 0))
    """Of each state's time, what ends where the thread was next seen running (inferred)."""
    inferred_intervals: int = 0
    lock_waits: list[LockWait] = field(default_factory=list)
    """Futex waits by lock, longest total first."""

    def share(self, state: str) -> float:
        return self.state_ns[state] / self.wall_ns if self.wall_ns else 0.0


@dataclass(slots=True)
class _Thread:
    pid: int | None = None
    intervals: int = 0
    inferred: int = 0
    waits: list[int] = field(default_factory=list)
    wakers: Counter[tuple[int | None, str]] = field(default_factory=Counter)


class SchedAccumulator:
    """Feed it every on-CPU and off-CPU interval of the threads; `result()` gives the breakdown."""

    def __init__(self, window: Window = WHOLE) -> None:
        self.window = window
        self.timeline = Timeline(window)
        self._threads: dict[tuple[int, str], _Thread] = {}

    def _thread(self, key: ThreadKey) -> tuple[_Thread, Lane]:
        pid, tid, comm = key
        lane_key = (tid, comm)
        thread = self._threads.get(lane_key)
        if thread is None:
            thread = self._threads[lane_key] = _Thread()
        if pid is not None:
            thread.pid = pid  # a pid learnt later still names the earlier intervals' thread
        thread.intervals += 1
        return thread, self.timeline.lane(lane_key)

    def add(self, interval: SchedInterval) -> None:
        key = (interval.pid, interval.tid, interval.comm)
        if interval.on_cpu:
            self.on_cpu(key, interval.start_ns, interval.duration_ns, interval.inferred_ns)
        else:
            self.off_cpu(
                key,
                interval.start_ns,
                interval.duration_ns,
                interval.state,
                interval.wakeup_delay_ns,
                interval.waker,
                interval.stack,
                interval.inferred_ns,
                interval.futex,
            )

    def on_cpu(
        self, key: ThreadKey, start_ns: int, duration_ns: int | None, inferred_ns: int | None = None
    ) -> None:
        length = duration_ns if duration_ns is not None else inferred_ns
        end_ns = start_ns + (length or 0)
        if not self.window.touches(start_ns, end_ns):
            return
        thread, lane = self._thread(key)
        timeline = self.timeline
        if length is None:
            timeline.observe(lane, start_ns)
            return
        inferred = duration_ns is None
        thread.inferred += inferred
        timeline.piece(lane, start_ns, end_ns, timeline.code(RUNNING, inferred))

    def off_cpu(
        self,
        key: ThreadKey,
        start_ns: int,
        duration_ns: int | None,
        state: str | None,
        wakeup_delay_ns: int | None,
        waker: tuple[int | None, str] | None = None,
        stack: Hashable | None = None,
        inferred_ns: int | None = None,
        futex: str | None = None,
    ) -> None:
        """One off-CPU interval; one no event closed counts what is known or inferred of it."""
        inferred = duration_ns is None and inferred_ns is not None
        length = duration_ns if duration_ns is not None else inferred_ns
        category = state_category(state)
        blocked = category in BLOCKED
        if wakeup_delay_ns is not None and not (0 <= wakeup_delay_ns <= (length or wakeup_delay_ns)):
            wakeup_delay_ns = None  # a wakeup outside the interval belongs to another one
        woken_ns = start_ns + wakeup_delay_ns if blocked and wakeup_delay_ns is not None else None
        end_ns = start_ns + length if length is not None else None
        reach = end_ns if end_ns is not None else (woken_ns if woken_ns is not None else start_ns)
        if not self.window.touches(start_ns, reach):
            return
        thread, lane = self._thread(key)
        thread.inferred += inferred
        if waker is not None:
            thread.wakers[waker] += 1
        timeline = self.timeline
        stack_ref = timeline.stack_ref(stack)
        lock_ref = timeline.lock_ref(("address", futex)) if futex is not None and blocked else NO_REF
        if woken_ns is not None:  # blocked until a recorded wakeup: exact, whatever closed it
            timeline.piece(lane, start_ns, woken_ns, timeline.code(category, False), stack_ref, lock_ref)
            if end_ns is None:
                timeline.observe(lane, woken_ns)
                return
            timeline.piece(lane, woken_ns, end_ns, timeline.code(RUNNABLE, inferred))
            if not inferred and self.window.touches(woken_ns, end_ns):
                thread.waits.append(end_ns - woken_ns)
            return
        if end_ns is None:
            timeline.observe(lane, start_ns)
            return
        timeline.piece(lane, start_ns, end_ns, timeline.code(category, inferred, state), stack_ref, lock_ref)
        if category == RUNNABLE and not inferred and self.window.touches(start_ns, end_ns):
            thread.waits.append(end_ns - start_ns)

    def result(self, futex_stack: FutexStack | None = None) -> list[ThreadStates]:
        """Every thread's breakdown; `futex_stack` groups address-less futex waits by their stack."""
        sites = _SiteLocks(self.timeline, futex_stack)
        return [
            _summarise(self.timeline, lane_key, self._threads[lane_key], lane, sites)
            for lane_key, lane in self.timeline.lanes.items()
        ]

    def pieces(self, tid: int, comm: str | None = None) -> list[Piece]:
        """One thread's laid-out line (every comm it had, unless one is named), for its strip."""
        out: list[Piece] = []
        for (lane_tid, lane_comm), lane in self.timeline.lanes.items():
            if lane_tid == tid and (comm is None or lane_comm == comm):
                out.extend(self.timeline.pieces(lane))
        out.sort(key=lambda p: p.start_ns)
        return out

    def stacks(self) -> list[Hashable]:
        """Every blocking stack fed in (to resolve their frames before `result`)."""
        return list(self.timeline.stacks)


class _SiteLocks:
    """Lock keys of address-less futex waits: their blocking stack, when it is a futex wait."""

    def __init__(self, timeline: Timeline, futex_stack: FutexStack | None) -> None:
        self._timeline = timeline
        self._test = futex_stack
        self._known: dict[int, LockKey | None] = {}

    def of(self, stack_ref: int) -> LockKey | None:
        if self._test is None or stack_ref == NO_REF:
            return None
        if stack_ref not in self._known:
            stack = self._timeline.stacks[stack_ref]
            self._known[stack_ref] = ("site", stack) if self._test(stack) else None
        return self._known[stack_ref]


def _summarise(
    timeline: Timeline, lane_key: tuple[int, str], thread: _Thread, lane: Lane, sites: _SiteLocks
) -> ThreadStates:
    tid, comm = lane_key
    state_ns = dict.fromkeys(STATES, 0)
    inferred_ns = dict.fromkeys(STATES, 0)
    other: Counter[str] = Counter()
    stack_stats: dict[tuple[str, int], list[int]] = {}
    lock_stats: dict[LockKey, list[int]] = {}
    first: int | None = None
    last = 0
    for start, end, code, stack, lock in timeline.lay(lane):
        if first is None:
            first = start
        last = end
        ns = end - start
        state = timeline.state(code)
        inferred = timeline.inferred(code)
        state_ns[state] += ns
        if inferred:
            inferred_ns[state] += ns
        if state == OTHER:
            other[timeline.letter(code) or "?"] += ns
        if stack != NO_REF:
            _tally(stack_stats.setdefault((state, stack), [0, 0, 0, 0]), ns, inferred)
        if state in BLOCKED:
            lock_key = timeline.locks[lock] if lock != NO_REF else sites.of(stack)
            if lock_key is not None:
                _tally(lock_stats.setdefault(lock_key, [0, 0, 0, 0]), ns, inferred)
    wall = last - first if first is not None else 0
    return ThreadStates(
        pid=thread.pid,
        tid=tid,
        comm=comm,
        wall_ns=wall,
        state_ns=state_ns,
        other_states=dict(other),
        intervals=thread.intervals,
        latency=latency_of(thread.waits),
        wakers=_top_wakers(thread.wakers),
        top_stacks=_top_stacks(timeline, stack_stats, state_ns),
        inferred_ns=inferred_ns,
        inferred_intervals=thread.inferred,
        lock_waits=[
            LockWait(key, count, total, longest, inferred)
            for key, (count, total, longest, inferred) in sorted(
                lock_stats.items(), key=lambda item: -item[1][1]
            )[:MAX_LOCKS_PER_THREAD]
        ],
    )


def _tally(stats: list[int], ns: int, inferred: bool) -> None:
    """[count, total, longest, inferred total] of a stack's or a lock's waits."""
    stats[0] += 1
    stats[1] += ns
    if ns > stats[2]:
        stats[2] = ns
    if inferred:
        stats[3] += ns


def _top_wakers(wakers: Counter[tuple[int | None, str]]) -> list[tuple[int | None, str, int]]:
    """The threads that woke this one most, ties by thread id: the same list whatever order the
    intervals came in (the parse and the view read them in different orders)."""
    ranked = sorted(
        wakers.items(), key=lambda item: (-item[1], item[0][0] if item[0][0] is not None else -1, item[0][1])
    )
    return [(tid, comm, count) for (tid, comm), count in ranked[:MAX_WAKERS]]


def _top_stacks(
    timeline: Timeline, stack_stats: dict[tuple[str, int], list[int]], state_ns: dict[str, int]
) -> dict[str, list[TopStack]]:
    by_state: dict[str, list[tuple[int, list[int]]]] = {}
    for (state, ref), stats in stack_stats.items():
        by_state.setdefault(state, []).append((ref, stats))
    out: dict[str, list[TopStack]] = {}
    for state, entries in by_state.items():
        # Ties in time go by the stack itself, not by when it was first seen: rows of equal times
        # can arrive in any order (TimescaleDB chunks), and the list must not change with them.
        entries.sort(key=lambda entry: (-entry[1][1], _stack_order(timeline.stacks[entry[0]])))
        total = state_ns[state]
        out[state] = [
            TopStack(timeline.stacks[ref], ns, ns / total if total else 0.0, count, longest)
            for ref, (count, ns, longest, _) in entries[:TOP_STACKS]
        ]
    return out


def _stack_order(stack: Hashable) -> tuple[int, int, str]:
    """A total order on stacks: stored stacks by id, others (tuples of frames) by their text."""
    return (0, stack, "") if isinstance(stack, int) else (1, 0, repr(stack))


def latency_of(waits: list[int]) -> Latency:
    """Nearest-rank percentiles: every figure is a wait that happened, not an interpolation."""
    if not waits:
        return Latency()
    ordered = sorted(waits)

    def rank(p: int) -> int:
        return ordered[max(0, -(-p * len(ordered) // 100) - 1)]

    p50, p90, p99 = (rank(p) for p in LATENCY_PERCENTILES)
    return Latency(len(ordered), p50, p90, p99, ordered[-1])


def tick_category(letter: str) -> str:
    """/proc's R is running or waiting for a CPU: the sampler cannot tell them apart."""
    return RUNNING if letter[:1] == "R" else state_category(letter)


class TickAccumulator:
    """Per-thread states sampled every `interval_ns` (the /proc sampler's `thread.state` series)."""

    def __init__(self, interval_ns: int, window: Window = WHOLE) -> None:
        self.interval_ns = interval_ns
        self.window = window
        self._ns: dict[ThreadKey, Counter[str]] = {}
        self._ticks: Counter[ThreadKey] = Counter()

    def add(
        self, key: ThreadKey, time_ns: int, state: str, ticks: int = 1, interval_ns: int | None = None
    ) -> None:
        """`ticks` samples in `state`; captures sampled at other rates pass their own interval."""
        if not self.window.contains(time_ns):
            return
        counter = self._ns.get(key)
        if counter is None:
            counter = self._ns[key] = Counter()
        counter[state] += ticks * (interval_ns or self.interval_ns)
        self._ticks[key] += ticks

    def result(self) -> list[ThreadStates]:
        out = []
        for (pid, tid, comm), by_letter in self._ns.items():
            state_ns = dict.fromkeys(STATES, 0)
            other: Counter[str] = Counter()
            for letter, ns in by_letter.items():
                category = tick_category(letter)
                state_ns[category] += ns
                if category == OTHER:
                    other[letter[:1]] += ns
            out.append(
                ThreadStates(
                    pid=pid,
                    tid=tid,
                    comm=comm,
                    wall_ns=sum(by_letter.values()),
                    state_ns=state_ns,
                    other_states=dict(other),
                    intervals=self._ticks[(pid, tid, comm)],
                    latency=Latency(),
                    wakers=[],
                    top_stacks={},
                )
            )
        return out


def busiest_first(threads: Iterable[ThreadStates]) -> list[ThreadStates]:
    """Threads that spent most time off the CPU for a reason first: what people look for."""
    return sorted(
        threads,
        key=lambda t: (-(t.wall_ns - t.state_ns[SLEEPING] - t.state_ns[UNKNOWN]), t.comm, t.tid),
    )
