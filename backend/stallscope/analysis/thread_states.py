"""Where each thread's time went: running, runnable, sleeping, in uninterruptible wait, or unknown.

Two sources, one result. Scheduler intervals (off-CPU and on-CPU, from `sched_switch` pairs and
wakeups) give exact times: an off-CPU interval in state S or D is blocked until its wakeup and
runnable after it (waiting for a CPU: scheduler latency); a preempted one (R) is runnable throughout.
The /proc sampler gives a state per tick instead: shares are tick counts, times are ticks times the
interval, and it cannot tell running from runnable (both read R).

A thread's wall time is the part of the window in which it was observed, from its first interval's
start to its last one's end; what no interval covers in it (unclosed intervals, lost events) is
`unknown`, never guessed. So each thread's states always add up to its wall time.

Pure: the API feeds it rows from the database, `stallscope threads` records from a local file.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterable
from dataclasses import dataclass, field

RUNNING = "running"
RUNNABLE = "runnable"
SLEEPING = "sleeping"
UNINTERRUPTIBLE = "uninterruptible"
OTHER = "other"
UNKNOWN = "unknown"
STATES = (RUNNING, RUNNABLE, SLEEPING, UNINTERRUPTIBLE, OTHER, UNKNOWN)
"""Every thread reports these, in this order; `other` sums the rarer kernel states."""

LATENCY_PERCENTILES = (50, 90, 99)
MAX_WAKERS = 5

ThreadKey = tuple[int | None, int, str]
"""(pid, tid, comm): a thread keeps its tid across exec, under a new comm, so comm is part of it."""


def state_category(state: str | None) -> str:
    """The breakdown's category of a kernel task state letter (`R+` and `D|K` included).

    I (TASK_IDLE: a kernel thread waiting for work) is a sleep: it blocks nobody and does not count
    in the load average, unlike D.
    """
    letter = (state or "?")[:1]
    if letter in ("S", "I"):
        return SLEEPING
    if letter == "D":
        return UNINTERRUPTIBLE
    if letter == "R":
        return RUNNABLE
    return OTHER


@dataclass(frozen=True, slots=True)
class Window:
    """[start_ns, end_ns) on the intervals' clock; None leaves that side open."""

    start_ns: int | None = None
    end_ns: int | None = None

    def clip(self, start: int, end: int) -> tuple[int, int]:
        if self.start_ns is not None and start < self.start_ns:
            start = self.start_ns
        if self.end_ns is not None and end > self.end_ns:
            end = self.end_ns
        return start, end

    def overlap(self, start: int, end: int) -> int:
        lo, hi = self.clip(start, end)
        return hi - lo if hi > lo else 0

    def contains(self, t: int) -> bool:
        return (self.start_ns is None or t >= self.start_ns) and (self.end_ns is None or t < self.end_ns)


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
    """The blocking stack that held a thread longest in one state."""

    stack: Hashable
    ns: int
    share: float
    """Of the thread's time in that state."""


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
    top_stacks: dict[str, TopStack]
    """Per blocked state (sleeping, uninterruptible, runnable when preempted)."""

    def share(self, state: str) -> float:
        return self.state_ns[state] / self.wall_ns if self.wall_ns else 0.0


@dataclass(slots=True)
class _Thread:
    first_ns: int | None = None
    last_ns: int | None = None
    known: Counter[str] = field(default_factory=Counter)
    other: Counter[str] = field(default_factory=Counter)
    intervals: int = 0
    waits: list[int] = field(default_factory=list)
    wakers: Counter[tuple[int | None, str]] = field(default_factory=Counter)
    stacks: dict[str, Counter[Hashable]] = field(default_factory=dict)

    def observe(self, start: int, end: int) -> None:
        if self.first_ns is None or start < self.first_ns:
            self.first_ns = start
        if self.last_ns is None or end > self.last_ns:
            self.last_ns = end

    def add(self, category: str, ns: int, letter: str | None) -> None:
        if ns <= 0:
            return
        self.known[category] += ns
        if category == OTHER:
            self.other[(letter or "?")[:1]] += ns

    def blame(self, category: str, stack: Hashable | None, ns: int) -> None:
        if stack is None or ns <= 0:
            return
        self.stacks.setdefault(category, Counter())[stack] += ns


class SchedAccumulator:
    """Feed it every on-CPU and off-CPU interval of the threads; `result()` gives the breakdown."""

    def __init__(self, window: Window = Window()) -> None:
        self.window = window
        self._threads: dict[ThreadKey, _Thread] = {}

    def _thread(self, key: ThreadKey) -> _Thread:
        thread = self._threads.get(key)
        if thread is None:
            thread = self._threads[key] = _Thread()
        return thread

    def on_cpu(self, key: ThreadKey, start_ns: int, duration_ns: int | None) -> None:
        window = self.window
        end_ns = start_ns + (duration_ns or 0)
        if window.overlap(start_ns, max(end_ns, start_ns + 1)) == 0:
            return
        thread = self._thread(key)
        thread.intervals += 1
        thread.observe(*window.clip(start_ns, end_ns))
        if duration_ns is not None:
            thread.add(RUNNING, window.overlap(start_ns, end_ns), None)

    def off_cpu(
        self,
        key: ThreadKey,
        start_ns: int,
        duration_ns: int | None,
        state: str | None,
        wakeup_delay_ns: int | None,
        waker: tuple[int | None, str] | None = None,
        stack: Hashable | None = None,
    ) -> None:
        """One off-CPU interval; an unclosed one (duration None) counts only what is known of it."""
        window = self.window
        category = state_category(state)
        blocked = category in (SLEEPING, UNINTERRUPTIBLE)
        if wakeup_delay_ns is not None and not (0 <= wakeup_delay_ns <= (duration_ns or wakeup_delay_ns)):
            wakeup_delay_ns = None  # a wakeup outside the interval belongs to another one
        woken_ns = start_ns + wakeup_delay_ns if blocked and wakeup_delay_ns is not None else None
        end_ns = start_ns + duration_ns if duration_ns is not None else (woken_ns or start_ns)
        if window.overlap(start_ns, max(end_ns, start_ns + 1)) == 0:
            return
        thread = self._thread(key)
        thread.intervals += 1
        thread.observe(*window.clip(start_ns, end_ns))
        if waker is not None:
            thread.wakers[waker] += 1
        if not blocked:
            if duration_ns is not None:
                ns = window.overlap(start_ns, end_ns)
                thread.add(category, ns, state)
                thread.blame(category, stack, ns)
                if category == RUNNABLE and _touches(window, start_ns, end_ns):
                    thread.waits.append(duration_ns)
            return
        blocked_end = woken_ns if woken_ns is not None else end_ns
        ns = window.overlap(start_ns, blocked_end)
        thread.add(category, ns, state)
        thread.blame(category, stack, ns)
        if woken_ns is not None and duration_ns is not None:
            thread.add(RUNNABLE, window.overlap(woken_ns, end_ns), None)
            if _touches(window, woken_ns, end_ns):
                thread.waits.append(end_ns - woken_ns)

    def result(self) -> list[ThreadStates]:
        return [_summarise(key, thread) for key, thread in self._threads.items()]


def _touches(window: Window, start: int, end: int) -> bool:
    """Whether a wait belongs to the window: it overlaps it, or is instantaneous inside it."""
    return window.overlap(start, end) > 0 or (start == end and window.contains(start))


def _summarise(key: ThreadKey, thread: _Thread) -> ThreadStates:
    pid, tid, comm = key
    wall = (thread.last_ns or 0) - (thread.first_ns or 0)
    state_ns = {state: thread.known.get(state, 0) for state in STATES}
    known = sum(state_ns.values())
    if known > wall:  # overlapping intervals (lost switches): never report more than the wall time
        wall = known
    state_ns[UNKNOWN] = wall - known
    top_stacks: dict[str, TopStack] = {}
    for category, stacks in thread.stacks.items():
        stack, ns = stacks.most_common(1)[0]
        total = thread.known.get(category, 0)
        top_stacks[category] = TopStack(stack, ns, ns / total if total else 0.0)
    return ThreadStates(
        pid=pid,
        tid=tid,
        comm=comm,
        wall_ns=wall,
        state_ns=state_ns,
        other_states=dict(thread.other),
        intervals=thread.intervals,
        latency=latency_of(thread.waits),
        wakers=[(w_tid, w_comm, n) for (w_tid, w_comm), n in thread.wakers.most_common(MAX_WAKERS)],
        top_stacks=top_stacks,
    )


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

    def __init__(self, interval_ns: int, window: Window = Window()) -> None:
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
