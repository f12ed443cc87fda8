"""Run-queue starvation: threads that wake up to do work wait for a CPU.

Time runnable (woken or preempted, not yet on a CPU) is pure scheduling delay: more runnable
threads than CPUs, a CPU-bound neighbour at the same priority, CPU quota throttling. The threads
view's scheduler latency (wake-up to running) percentiles say how long each wait was.
"""

from __future__ import annotations

from stallscope.analysis.findings.detector import Detector, Links, Measure, Threshold, grade
from stallscope.analysis.findings.finding import Evidence, Finding, Severity
from stallscope.analysis.findings.profile import Profile, ProfileThread
from stallscope.analysis.findings.wording import duration, pct, thread_refs, threads_phrase
from stallscope.analysis.thread_timeline import RUNNABLE, SLEEPING, UNINTERRUPTIBLE

MIN_WALL_NS = 100_000_000
MIN_WAITS = 20
SLEEPER_SHARE = 0.2


class RunqueueStarvation(Detector):
    id = "runqueue-starvation"
    title = "Run-queue starvation"
    needs = ("threads",)
    thresholds = (
        Threshold("info", 0.05, "share", "of a thread's time runnable, waiting for a CPU"),
        Threshold("warning", 0.15, "share", "of a thread's time runnable"),
        Threshold("critical", 0.40, "share", "of a thread's time runnable"),
        Threshold(
            "latency_warning", 10, "ms", "p99 wake-up-to-running latency of a thread: at least a warning"
        ),
        Threshold("latency_critical", 50, "ms", "p99 wake-up-to-running latency of a thread: critical"),
        Threshold("min_waits", MIN_WAITS, "count", "a thread's wake-ups before it is judged at all"),
        Threshold(
            "sleeper",
            SLEEPER_SHARE,
            "share",
            "of its time a thread must sleep (S or D) to count as a waiting victim; CPU-bound threads "
            "queueing behind each other are capped at info (saturation, not starvation)",
        ),
    )
    confidence_rule = (
        "0.7 from scheduler intervals (exact); 0.4 from /proc sampler ticks (R mixes running and runnable)"
    )
    next_checks = (
        "The run queue length and CPU saturation: vmstat 1 (r column), mpstat -P ALL, /proc/pressure/cpu.",
        "CPU quota throttling of the cgroup: cpu.stat nr_throttled and throttled_usec.",
        "Who runs instead: the CPU flame graph of the same time range.",
    )
    remediation = (
        "Give the latency-sensitive threads CPU: fewer busy threads than CPUs, lower priority (nice, "
        "SCHED_IDLE) for batch work, CPU affinity or isolation for the critical thread, or a higher "
        "cgroup quota."
    )
    references = (
        "https://docs.kernel.org/scheduler/sched-stats.html",
        "https://docs.kernel.org/accounting/psi.html",
    )

    def _starved(self, p: Profile) -> list[tuple[ProfileThread, float, int | None]]:
        out = []
        for t in p.sched_threads():
            s = t.summary
            if s.wall_ns < MIN_WALL_NS:
                continue
            waits, _, _, p99, _ = s.latency
            if waits < self.threshold("min_waits"):
                continue  # seen only in passing (another process switching with the target)
            out.append((t, s.share(RUNNABLE), p99))
        out.sort(key=lambda x: (-x[1], -(x[2] or 0)))
        return out

    def _severity(self, share: float, p99: int | None) -> Severity | None:
        by_share = grade(share, self.threshold("warning"), self.threshold("critical"), self.threshold("info"))
        by_latency = grade(
            (p99 or 0) / 1e6, self.threshold("latency_warning"), self.threshold("latency_critical")
        )
        found = [s for s in (by_share, by_latency) if s is not None]
        return max(found) if found else None

    def _sleeps(self, t: ProfileThread) -> bool:
        """Whether the thread waits for events (a latency victim) rather than burning CPU."""
        s = t.summary
        return s.share(SLEEPING) + s.share(UNINTERRUPTIBLE) >= self.threshold("sleeper")

    def measure(self, p: Profile) -> Measure | None:
        if not p.sched_threads():
            return None
        victims = [share for t, share, _ in self._starved(p) if self._sleeps(t)]
        share = max(victims, default=0.0)
        return Measure(share, f"{pct(share)} runnable at most, of threads that sleep between work")

    def detect(self, p: Profile, baseline: Profile | None, links: Links) -> Finding | None:
        graded = []
        for t, share, p99 in self._starved(p):
            severity = self._severity(share, p99)
            if severity is not None and not self._sleeps(t):
                severity = Severity.INFO
            if severity is not None:
                graded.append((severity, t, share, p99))
        if not graded:
            return None
        graded.sort(key=lambda g: (-g[0], -g[2]))
        severity, worst, share, p99 = graded[0]
        keys = [(g[1].summary.pid, g[1].summary.tid, g[1].summary.comm) for g in graded]
        s = worst.summary
        threads_view = links.threads(tid=s.tid)
        evidence = [
            Evidence(
                "Runnable, waiting for a CPU",
                f"{s.comm} ({s.tid}): {pct(share)} of its time "
                f"({duration(s.state_ns.get(RUNNABLE, 0))} of {duration(s.wall_ns)})",
                share,
                "share",
                view=threads_view,
            ),
            Evidence(
                "Scheduler latency",
                f"{s.comm} ({s.tid}): p50 {duration(s.latency[1])}, p99 {duration(s.latency[3])}, longest "
                f"{duration(s.latency[4])} over {s.latency[0]:,} wake-ups",
                s.latency[3],
                "ns",
                view=threads_view,
            ),
            Evidence("Threads affected", threads_phrase(keys)),
        ]
        exact = p.thread_source == "sched"
        return self.finding(
            severity=severity,
            confidence=0.7 if exact else 0.4,
            summary=f"{threads_phrase(keys)} wait for a CPU; {s.comm} ({s.tid}) is runnable "
            f"{pct(share)} of its time" + (f", p99 latency {duration(p99)}." if p99 is not None else "."),
            evidence=evidence,
            view=threads_view,
            threads=thread_refs(p.name, keys[:8]),
            score=share,
        )
