"""Thread-state breakdown payloads as the API speaks them (times in nanoseconds)."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel

from stallscope.kit.answer_model import AnswerModel

StateSource = Literal["sched", "proc-sampler", "none"]
ThreadState = Literal["running", "runnable", "sleeping", "uninterruptible", "other", "unknown"]
"""`analysis/thread_timeline.STATES`: a thread's states, which add up to its observed wall time."""


class StateTimesOut(AnswerModel):
    """Nanoseconds in each state (0 for a state the thread was never in)."""

    running: int = 0
    runnable: int = 0
    """Woken, waiting for a CPU."""
    sleeping: int = 0
    uninterruptible: int = 0
    other: int = 0
    unknown: int = 0


class LatencyOut(BaseModel):
    """Waits for a CPU once runnable (scheduler latency)."""

    count: int
    p50_ns: int | None
    p90_ns: int | None
    p99_ns: int | None
    max_ns: int | None


class WakerOut(BaseModel):
    tid: int | None
    comm: str
    wakeups: int


class TopStackOut(BaseModel):
    """A blocking stack's part of the thread's time in one state."""

    stack_id: int
    ns: int
    """Total time in the state with this stack."""
    share: float
    """Of the thread's time in the state."""
    count: int
    longest_ns: int
    frames: list[str]
    """Root first, like folded stacks."""


class ThreadOut(BaseModel):
    capture_id: int
    """Threads are per capture: two hosts' tid 100 are different threads."""
    host: str | None
    pid: int | None
    tid: int
    comm: str
    wall_ns: int
    states: StateTimesOut
    inferred: StateTimesOut
    """Of each state's time, what ends where the thread was next seen running (no closing event)."""
    other_states: dict[str, int]
    intervals: int
    inferred_intervals: int
    latency: LatencyOut
    wakers: list[WakerOut]
    top_stacks: dict[ThreadState, list[TopStackOut]]
    """Per state, the heaviest blocking stacks by total time (at most 5), heaviest first."""


class LockWaiterOut(BaseModel):
    pid: int | None
    tid: int
    comm: str
    waits: int
    total_ns: int
    longest_ns: int
    inferred_ns: int


class LockOut(BaseModel):
    """One futex and the threads that waited on it."""

    capture_id: int
    host: str | None
    pid: int | None
    """The process whose address space holds it, when the capture says."""
    kind: Literal["address", "site"]
    """`address`: the futex's address is known; `site`: only the wait's blocking stack is."""
    address: str | None
    stack_id: int | None
    frames: list[str]
    """A site's blocking stack, root first; empty for an address."""
    caller: list[str]
    """A site's frames before the system call (root first): the code that took the lock."""
    waits: int
    total_ns: int
    longest_ns: int
    inferred_ns: int
    waiter_count: int
    waiters: list[LockWaiterOut]
    """Longest total wait first (at most 20)."""


class ThreadsOut(BaseModel):
    source: StateSource
    start: datetime | None
    end: datetime | None
    threads: list[ThreadOut]
    total_threads: int
    """Before `limit`: the busiest threads come first."""
    locks: list[LockOut]
    """Futex waits by lock across the threads (name filter applied, `limit` not), longest first."""
    notes: list[str]


class SegmentOut(BaseModel):
    start: datetime
    end: datetime
    state: ThreadState
    inferred: bool


class StripOut(BaseModel):
    source: StateSource
    tid: int
    segments: list[SegmentOut]
    """The thread's whole line: unknown stretches included, so per-state times match its breakdown."""
