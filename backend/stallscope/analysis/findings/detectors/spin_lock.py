"""A global spin lock: CPUs spinning in `native_queued_spin_lock_slowpath` behind one hot lock.

A kernel spin lock that every CPU takes on a hot path (cpufreq's policy lock, a global list lock,
a kretprobe instance pool) turns into CPU time burnt waiting, which grows with the CPU count. The
caller below the spin frames names the lock's owner code.
"""

from __future__ import annotations

from stallscope.analysis.findings.detector import Links
from stallscope.analysis.findings.finding import Evidence
from stallscope.analysis.findings.on_cpu import OnCpuDetector, cpu_thresholds
from stallscope.analysis.findings.profile import Match, Profile, Terms
from stallscope.analysis.findings.wording import pct

SPIN_FRAMES = Terms(
    "native_queued_spin_lock_slowpath", "queued_spin_lock_slowpath", "__pv_queued_spin_lock_slowpath"
)
SPIN_FAMILY = Terms(
    "spin_lock_slowpath",
    "_raw_spin_lock",
    "do_raw_spin_lock",
    "queued_spin_lock",
    "spin_lock",
    "_raw_spin_trylock",
)
ONE_CALLER = 0.5
"""One caller behind this share of the spinning: a single hot lock."""


class GlobalSpinLock(OnCpuDetector):
    id = "global-spin-lock"
    title = "Hot kernel spin lock"
    terms = SPIN_FRAMES
    skip = SPIN_FAMILY
    what = "spinning on a kernel lock"
    thresholds = cpu_thresholds(warning=0.05, critical=0.15, info=0.02)
    next_checks = (
        "Which lock: the caller frames below the spin (the heaviest stack), and lock_stat or "
        "perf lock contention -ab where available.",
        "Whether the spinning grows with CPU count or load (compare a smaller or idle host).",
        "Kernel version: many global locks were split in later kernels (cpufreq, kretprobe pools).",
    )
    remediation = (
        "Remove the hot path's use of the lock: for cpufreq pin the governor (performance) or update "
        "the kernel; for probe pools unload the probing agent or switch it to fentry/fexit BPF; "
        "otherwise spread the work so fewer CPUs take the lock at once."
    )
    references = (
        "https://docs.kernel.org/locking/locktypes.html",
        "https://www.brendangregg.com/blog/2017-05-09/cpu-utilization-is-wrong.html",
    )

    def corroborate(self, p: Profile, match: Match, links: Links) -> list[Evidence]:
        if not match.callers:
            return []
        caller, weight = match.callers.most_common(1)[0]
        share = weight / match.weight if match.weight else 0.0
        if share < ONE_CALLER:
            return []
        return [
            Evidence(
                "One caller", f"{caller} takes {pct(share)} of the spinning: one hot lock", share, "share"
            )
        ]

    def summary(self, p: Profile, match: Match) -> str:
        caller = match.callers.most_common(1)[0][0] if match.callers else "unknown callers"
        return (
            f"{pct(match.share)} of CPU time on this host is spent spinning on a kernel lock, "
            f"mostly from {caller}."
        )
