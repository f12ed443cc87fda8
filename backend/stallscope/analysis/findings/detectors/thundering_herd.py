"""Thundering herd: one waker wakes many threads at once, and most go straight back to sleep.

`pthread_cond_broadcast`/`notifyAll` for work only one waiter can take, or an accept/epoll set
shared by every worker, wakes the whole pool: each wake-up costs a context switch, the run queue
fills with threads that find nothing to do, and the one that could work waits behind them. Seen as
one waker's wake-ups arriving in bursts (many threads woken within 100 us), where a signal wakes
one thread per unit of work.
"""

from __future__ import annotations

from stallscope.analysis.findings.detector import Detector, Links, Measure, Threshold, grade
from stallscope.analysis.findings.digest import BURST_GAP_US, ThreadSummary, WakeBursts
from stallscope.analysis.findings.finding import Evidence, Finding
from stallscope.analysis.findings.profile import Profile
from stallscope.analysis.findings.wording import pct, thread_refs, threads_phrase
from stallscope.analysis.thread_timeline import RUNNABLE

MIN_WAKEUPS_PER_S = 100.0


class ThunderingHerd(Detector):
    id = "thundering-herd"
    title = "Thundering herd"
    needs = ("threads",)
    thresholds = (
        Threshold("fan_out", 4, "count", "distinct threads one waker wakes"),
        Threshold("min_rate", MIN_WAKEUPS_PER_S, "per_s", "wake-ups per second by that waker"),
        Threshold("info", 2.0, "ratio", f"threads woken per burst (wake-ups under {BURST_GAP_US} us apart)"),
        Threshold("warning", 3.0, "ratio", "threads woken per burst: a herd"),
        Threshold("critical", 8.0, "ratio", "threads woken per burst"),
    )
    confidence_rule = "0.6; +0.2 when the woken threads spend 5% or more of their time runnable"
    next_checks = (
        "The waker's code: pthread_cond_broadcast, notifyAll, futex(FUTEX_WAKE, INT_MAX), shared epoll "
        "without EPOLLEXCLUSIVE.",
        "Context switches per second (pidstat -w) on the woken threads.",
    )
    remediation = (
        "Wake one waiter per unit of work (pthread_cond_signal, notify, EPOLLEXCLUSIVE, SO_REUSEPORT "
        "accept queues), or give each worker its own queue."
    )
    references = (
        "https://man7.org/linux/man-pages/man3/pthread_cond_broadcast.3p.html",
        "https://lwn.net/Articles/632590/",
    )

    def _seconds(self, p: Profile) -> float:
        span = p.time_range_ns
        return (span[1] - span[0]) / 1e9 if span and span[1] > span[0] else 1.0

    def _worst(self, p: Profile) -> WakeBursts | None:
        """The waker (of the recorded processes) waking the most threads per burst."""
        tids = {t.summary.tid: t.summary.pid for t in p.threads}
        candidates = [
            b
            for d in p.digests
            for b in d.wake_bursts
            if b.bursts
            and b.woken_threads >= self.threshold("fan_out")
            and p.is_target(tids.get(b.waker_tid))
        ]
        return max(candidates, key=lambda b: (b.wakeups / b.bursts, b.wakeups), default=None)

    def measure(self, p: Profile) -> Measure | None:
        if not any(d.wake_bursts for d in p.digests):
            return None
        worst = self._worst(p)
        size = worst.wakeups / worst.bursts if worst else 1.0
        return Measure(size, f"{size:.1f} threads woken per burst")

    def detect(self, p: Profile, baseline: Profile | None, links: Links) -> Finding | None:
        worst = self._worst(p)
        if worst is None:
            return None
        rate = worst.wakeups / self._seconds(p)
        size = worst.wakeups / worst.bursts
        if rate < self.threshold("min_rate"):
            return None
        severity = grade(size, self.threshold("warning"), self.threshold("critical"), self.threshold("info"))
        if severity is None:
            return None
        woken = [t.summary for t in p.sched_threads() if _woken_by(t.summary, worst.waker_tid)]
        keys = [(s.pid, s.tid, s.comm) for s in sorted(woken, key=lambda s: s.comm)]
        wall = sum(s.wall_ns for s in woken)
        runnable_share = sum(s.state_ns.get(RUNNABLE, 0) for s in woken) / wall if wall else 0.0
        view = links.threads(sort="runnable")
        evidence = [
            Evidence(
                "Wake-ups in bursts",
                f"{worst.waker_comm} ({worst.waker_tid}) woke {worst.woken_threads} threads "
                f"{worst.wakeups:,} times in {worst.bursts:,} bursts: {size:.1f} threads per burst, "
                f"{rate:,.0f} wake-ups/s",
                size,
                "ratio",
            ),
            Evidence(
                "Woken threads runnable",
                f"{pct(runnable_share)} of the woken threads' time is spent waiting for a CPU",
                runnable_share,
                "share",
            ),
        ]
        return self.finding(
            severity=severity,
            confidence=0.6 + (0.2 if runnable_share >= 0.05 else 0),
            summary=(
                f"{worst.waker_comm} ({worst.waker_tid}) wakes {size:.1f} threads at a time, {rate:,.0f} "
                f"wake-ups a second, among {threads_phrase(keys) if keys else worst.woken_threads}."
            ),
            evidence=evidence,
            view=view,
            threads=thread_refs(p.name, keys[:8]),
            score=min(1.0, size / 16),
        )


def _woken_by(summary: ThreadSummary, waker_tid: int) -> bool:
    return any(tid == waker_tid for tid, _, _ in summary.wakers)
