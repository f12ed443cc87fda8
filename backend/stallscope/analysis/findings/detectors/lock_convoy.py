"""Lock convoy: many threads queue on one user-space lock, each sleeping most of its time in futex
waits for it.

A hot mutex around a short critical section, taken by more threads than can overlap, makes the
threads move in single file: every release hands the lock to a sleeper that must be woken, so the
lock is held mostly by threads waking up. Seen as sleeping time in `futex_wait` under
`__lll_lock_wait`/`pthread_mutex_lock` (or one futex address in the traced futex calls).
"""

from __future__ import annotations

from stallscope.analysis.findings.blocked import BlockedDetector
from stallscope.analysis.findings.detector import Links
from stallscope.analysis.findings.finding import Evidence
from stallscope.analysis.findings.profile import Profile, Terms
from stallscope.analysis.findings.wording import count, duration

MUTEX_WAIT = Terms(
    "__lll_lock_wait",
    "pthread_mutex_lock",
    "__pthread_mutex_lock",
    "___pthread_mutex_lock",
    "lll_lock_wait",
    "ObjectMonitor::enter",
    "ObjectMonitor::EnterI",
    "sync.(*Mutex).lockSlow",
    "std::mutex::lock",
    "__mutex_lock_slowpath",
)
MIN_WAITERS = 3


class LockConvoy(BlockedDetector):
    id = "lock-convoy"
    title = "Lock convoy"
    terms = MUTEX_WAIT
    needs = ("offcpu", "threads", "syscalls")
    states = ("S",)
    what = "waiting for a contended mutex"
    next_checks = (
        "Which lock: the futex address in perf trace -e futex, or the caller frames of the wait.",
        "How long the lock is held: the critical section's CPU stacks (who holds it while others wait).",
    )
    remediation = (
        "Shorten or split the critical section (shard the protected data per thread or per key, use "
        "atomics or a lock-free queue), or make fewer threads contend (a smaller pool)."
    )
    references = (
        "https://en.wikipedia.org/wiki/Lock_convoy",
        "https://man7.org/linux/man-pages/man2/futex.2.html",
    )

    def corroborate(self, p: Profile, links: Links) -> list[Evidence]:
        by_lock: dict[str, list[tuple[int, int]]] = {}
        for t in p.sched_threads():
            for lock, waits, total, _ in t.summary.locks:
                if lock != "site":
                    by_lock.setdefault(lock, []).append((waits, total))
        if not by_lock:
            return []
        lock, waiters = max(by_lock.items(), key=lambda kv: sum(total for _, total in kv[1]))
        if len(waiters) < MIN_WAITERS:
            return []
        waits = sum(w for w, _ in waiters)
        total = sum(t for _, t in waiters)
        return [
            Evidence(
                "One futex",
                f"{count(len(waiters), 'thread')} waited on futex {lock} {waits:,} times, "
                f"{duration(total)} in all",
                total,
                "ns",
                view=links.threads(),
            )
        ]
