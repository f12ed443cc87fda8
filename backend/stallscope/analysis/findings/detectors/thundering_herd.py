"""Thundering herd: one waker wakes many threads at once, and most go straight back to sleep.

`pthread_cond_broadcast`/`notifyAll` for work only one waiter can take, or an accept/epoll set
shared by every worker, wakes the whole pool: each wake-up costs a context switch, the run queue
fills with threads that find nothing to do, and the one that could work waits behind them.
"""

from __future__ import annotations

from collections import Counter

from stallscope.analysis.findings.detector import Detector, Links, Measure, Threshold, grade
from stallscope.analysis.findings.finding import Evidence, Finding
from stallscope.analysis.findings.profile import Profile
from stallscope.analysis.findings.wording import count, pct, thread_refs, threads_phrase
from stallscope.analysis.thread_timeline import RUNNABLE

MIN_WAKEUPS_PER_S = 200.0


class ThunderingHerd(Detector):
    id = "thundering-herd"
    title = "Thundering herd"
    needs = ("threads",)
    thresholds = (
        Threshold("fan_out", 6, "count", "distinct threads one waker wakes (the herd)"),
        Threshold("min_rate", MIN_WAKEUPS_PER_S, "per_s", "wake-ups per second by that waker"),
        Threshold("info", 1.0, "ratio", "wake-ups per unit of useful work: any herd is worth a look"),
        Threshold("warning", 3.0, "ratio", "wake-ups by the waker per wake-up that found work (herd size)"),
        Threshold("critical", 8.0, "ratio", "wake-ups per useful wake-up"),
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

    def _herd(
        self, p: Profile
    ) -> tuple[tuple[int | None, str], list[tuple[int | None, int, str, int]], float] | None:
        """The waker with the widest fan-out: (waker, woken threads with their wake-ups, seconds)."""
        woken: dict[tuple[int | None, str], list[tuple[int | None, int, str, int]]] = {}
        for t in p.sched_threads():
            s = t.summary
            for tid, comm, n in s.wakers:
                if tid in (None, 0) or tid == s.tid:
                    continue
                woken.setdefault((tid, comm), []).append((s.pid, s.tid, s.comm, n))
        if not woken:
            return None
        waker, threads = max(woken.items(), key=lambda kv: (len(kv[1]), sum(x[3] for x in kv[1])))
        span = p.time_range_ns
        seconds = (span[1] - span[0]) / 1e9 if span and span[1] > span[0] else 1.0
        return waker, threads, seconds

    def measure(self, p: Profile) -> Measure | None:
        herd = self._herd(p)
        if herd is None:
            return None
        _, threads, _ = herd
        return Measure(float(len(threads)), f"one waker wakes {len(threads)} threads")

    def detect(self, p: Profile, baseline: Profile | None, links: Links) -> Finding | None:
        herd = self._herd(p)
        if herd is None:
            return None
        (waker_tid, waker_comm), threads, seconds = herd
        wakeups = sum(n for *_, n in threads)
        rate = wakeups / seconds
        if len(threads) < self.threshold("fan_out") or rate < self.threshold("min_rate"):
            return None
        summaries = {t.summary.tid: t.summary for t in p.sched_threads()}
        runnable = sum(
            summaries[tid].state_ns.get(RUNNABLE, 0) for _, tid, _, _ in threads if tid in summaries
        )
        wall = sum(summaries[tid].wall_ns for _, tid, _, _ in threads if tid in summaries)
        runnable_share = runnable / wall if wall else 0.0
        # The waker's own wake-ups, if it is woken by the items' producer: a herd wakes N per item.
        per_item = wakeups / max(1, max(n for *_, n in threads))
        severity = grade(
            per_item, self.threshold("warning"), self.threshold("critical"), self.threshold("info")
        )
        if severity is None:
            return None
        keys = [(pid, tid, comm) for pid, tid, comm, _ in sorted(threads, key=lambda x: -x[3])]
        comms: Counter[str] = Counter(comm for _, _, comm, _ in threads)
        view = links.threads(sort="runnable")
        evidence = [
            Evidence(
                "One waker, many woken",
                f"{waker_comm} ({waker_tid}) woke {count(len(threads), 'thread')} {wakeups:,} times "
                f"({rate:,.0f}/s)",
                float(len(threads)),
                "count",
                view=view,
            ),
            Evidence(
                "Herd size",
                f"{per_item:.1f} wake-ups for every wake-up of the busiest woken thread",
                per_item,
                "ratio",
            ),
            Evidence(
                "Woken threads runnable",
                f"{pct(runnable_share)} of the woken threads' time is spent waiting for a CPU",
                runnable_share,
                "share",
                view=view,
            ),
            Evidence("Woken threads", ", ".join(f"{c} x{n}" for c, n in comms.most_common(4))),
        ]
        confidence = 0.6 + (0.2 if runnable_share >= 0.05 else 0)
        return Finding(
            id=self.id,
            title=self.title,
            severity=severity,
            confidence=confidence,
            summary=(
                f"{waker_comm} ({waker_tid}) wakes {threads_phrase(keys)} {rate:,.0f} times a second, "
                f"{per_item:.1f} wake-ups per unit of work."
            ),
            evidence=evidence,
            view=view,
            threads=thread_refs(p.name, keys[:8]),
            next_checks=list(self.next_checks),
            remediation=self.remediation,
            references=list(self.references),
            score=min(1.0, per_item / 16),
        )
