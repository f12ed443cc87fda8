"""Blocked time per thread: what share of each thread's time a kind of wait took.

Most kernel-latency causes show as threads blocked under a family of kernel frames (rwsem slow
paths, journal commits, page-cache reads). The share that matters is of each affected thread's own
time, not of all off-CPU time: sixteen query threads blocked 40% of their time is an incident even
when a thousand idle threads sleep beside them.
"""

from __future__ import annotations

from dataclasses import dataclass

from stallscope.analysis.findings.profile import Match, Profile, ThreadKey

MIN_THREAD_SHARE = 0.01
"""A thread counts as affected once the wait takes 1% of its time."""


@dataclass(frozen=True, slots=True)
class ThreadStall:
    thread: ThreadKey
    blocked_ns: int
    wall_ns: int

    @property
    def share(self) -> float:
        return self.blocked_ns / self.wall_ns if self.wall_ns else 0.0


@dataclass(frozen=True, slots=True)
class Stall:
    threads: list[ThreadStall]
    """Affected threads, most blocked (by share) first."""
    blocked_ns: int
    wall_ns: int

    @property
    def share(self) -> float:
        """Of the affected threads' time, the share blocked this way."""
        return self.blocked_ns / self.wall_ns if self.wall_ns else 0.0

    @property
    def worst(self) -> ThreadStall | None:
        return self.threads[0] if self.threads else None


def thread_walls(p: Profile) -> dict[tuple[int | None, str], int]:
    """Each thread's accounted time by (tid, comm); where no accounting exists, the capture span."""
    walls: dict[tuple[int | None, str], int] = {}
    for t in p.sched_threads():
        key = (t.summary.tid, t.summary.comm)
        walls[key] = walls.get(key, 0) + t.summary.wall_ns
    return walls


def stall_of(p: Profile, match: Match, min_share: float = MIN_THREAD_SHARE) -> Stall:
    walls = thread_walls(p)
    span = p.time_range_ns
    fallback = span[1] - span[0] if span else 0
    threads = []
    for key, blocked in match.by_thread.items():
        wall = walls.get((key[1], key[2])) or fallback
        wall = max(wall, blocked)
        if wall and blocked / wall >= min_share:
            threads.append(ThreadStall(key, blocked, wall))
    threads.sort(key=lambda s: (-s.share, -s.blocked_ns, s.thread[2]))
    return Stall(threads, sum(s.blocked_ns for s in threads), sum(s.wall_ns for s in threads))
