"""Futex waits grouped by lock: who waits on which futex, how often, and for how long.

A lock is its futex's address where the capture names it: `syscalls:sys_enter_futex` recorded beside
the scheduler events (the importer attaches it to the wait that follows), or the `futex(uaddr: …,
op: WAIT…)` calls of `perf trace`. Futex addresses are per process (private futexes are the norm),
so a lock is an address within one process of one capture. A scheduler capture without them only has
the wait's blocking stack (its `futex_wait` frames): those waits are grouped by that stack, a call
site rather than a lock, and the key says so (`site`).

Pure, like the breakdowns it reads: scheduler waits come from `ThreadStates.lock_waits` (the same
laid-out line as the thread's states), `perf trace` calls from `SyscallWaits`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from stallscope.analysis.thread_states import LockKey, LockWait, ThreadStates
from stallscope.analysis.thread_timeline import WHOLE, Window

MAX_LOCKS = 50
MAX_WAITERS = 20
SYSCALL_ENTRIES = ("entry_SYSCALL", "do_syscall_64", "__x64_sys_", "__do_sys_", "__se_sys_")


@dataclass(slots=True)
class Waiter:
    pid: int | None
    tid: int
    comm: str
    count: int
    total_ns: int
    longest_ns: int
    inferred_ns: int = 0


@dataclass(slots=True)
class LockGroup:
    scope: int
    """Where the address means something: the capture (threads of two hosts never share a lock)."""
    pid: int | None
    """The process whose address space holds the futex; None when the capture does not say."""
    lock: LockKey
    count: int = 0
    total_ns: int = 0
    longest_ns: int = 0
    inferred_ns: int = 0
    waiters: list[Waiter] = field(default_factory=list)
    """Longest total first, at most MAX_WAITERS."""
    waiter_count: int = 0


WaitRow = tuple[int, int | None, int, str, LockWait]
"""(scope, pid, tid, comm, the thread's waits on one lock)."""


def thread_waits(scope: int, threads: Iterable[ThreadStates]) -> list[WaitRow]:
    return [(scope, t.pid, t.tid, t.comm, wait) for t in threads for wait in t.lock_waits]


def group_locks(rows: Iterable[WaitRow], limit: int = MAX_LOCKS) -> list[LockGroup]:
    """Locks by total wait, longest first, each with its waiters by total wait."""
    groups: dict[tuple[int, int | None, LockKey], LockGroup] = {}
    for scope, pid, tid, comm, wait in rows:
        key = (scope, pid, wait.lock)
        group = groups.get(key)
        if group is None:
            group = groups[key] = LockGroup(scope, pid, wait.lock)
        group.count += wait.count
        group.total_ns += wait.total_ns
        group.longest_ns = max(group.longest_ns, wait.longest_ns)
        group.inferred_ns += wait.inferred_ns
        group.waiters.append(
            Waiter(pid, tid, comm, wait.count, wait.total_ns, wait.longest_ns, wait.inferred_ns)
        )
    ordered = sorted(groups.values(), key=lambda g: (-g.total_ns, g.scope, str(g.lock)))[:limit]
    for group in ordered:
        group.waiter_count = len(group.waiters)
        group.waiters.sort(key=lambda w: (-w.total_ns, w.tid))
        del group.waiters[MAX_WAITERS:]
    return ordered


def caller_frames(frames: list[str]) -> list[str]:
    """A futex wait's call site: its stack's frames before the system call entry (root first).

    The kernel half (`do_futex`, `futex_wait`, `schedule`) is the same for every lock; what tells
    two sites apart is the code that called it. A stack with no entry frame is all caller.
    """
    for i, name in enumerate(frames):
        if name.startswith(SYSCALL_ENTRIES):
            return frames[:i]
    return frames


class SyscallWaits:
    """Futex wait calls traced as syscalls (`perf trace`): their durations are the waits."""

    def __init__(self, window: Window = WHOLE) -> None:
        self.window = window
        self._waits: dict[tuple[int, int | None, int, str, str], list[int]] = {}

    def add(
        self, scope: int, pid: int | None, tid: int, comm: str, uaddr: str, start_ns: int, duration_ns: int
    ) -> None:
        ns = self.window.overlap(start_ns, start_ns + duration_ns)
        if ns <= 0 and not (duration_ns == 0 and self.window.contains(start_ns)):
            return
        stats = self._waits.setdefault((scope, pid, tid, comm, uaddr), [0, 0, 0])
        stats[0] += 1
        stats[1] += ns
        stats[2] = max(stats[2], ns)

    def rows(self) -> list[WaitRow]:
        return [
            (scope, pid, tid, comm, LockWait(("address", uaddr), count, total, longest))
            for (scope, pid, tid, comm, uaddr), (count, total, longest) in self._waits.items()
        ]
