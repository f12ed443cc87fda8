"""fsync behind writeback: a thread's fsync waits for the journal commit and for writeback of
other writers' dirty data.

On ext4 (jbd2) an fsync forces a journal commit that carries every metadata change since the last
one, and waits for data writeback ordered before it: a bulk writer on the same file system turns a
1 ms fsync into seconds. Seen as time in D under `jbd2_log_wait_commit`, `folio_wait_writeback`,
`wbt_wait` or `balance_dirty_pages`, with long fsync/fdatasync calls.
"""

from __future__ import annotations

from stallscope.analysis.findings.blocked import BlockedDetector
from stallscope.analysis.findings.detector import Links, Measure, Threshold, grade
from stallscope.analysis.findings.finding import Evidence, Severity
from stallscope.analysis.findings.profile import Match, Profile, Terms
from stallscope.analysis.findings.stalls import Stall
from stallscope.analysis.findings.wording import duration

SYNC_CALLS = ("fsync", "fdatasync", "sync_file_range", "msync", "sync", "syncfs")
DIRTY_SETTINGS = (
    "dirty_ratio",
    "dirty_background_ratio",
    "dirty_bytes",
    "dirty_background_bytes",
    "dirty_expire_centisecs",
)


class FsyncBehindWriteback(BlockedDetector):
    id = "fsync-behind-writeback"
    title = "fsync waits behind writeback"
    terms = Terms(
        "jbd2_log_wait_commit",
        "jbd2_complete_transaction",
        "folio_wait_writeback",
        "wait_on_page_writeback",
        "__filemap_fdatawait_range",
        "filemap_fdatawait",
        "wbt_wait",
        "balance_dirty_pages",
        "xlog_wait",
        "xfs_log_force",
        "btrfs_wait_ordered",
    )
    what = "waiting for fsync, journal commits or writeback"
    next_checks = (
        "Who else writes to the same file system (pidstat -d, iotop, the writeback tracepoints "
        "writeback:writeback_start).",
        "Dirty memory and writeback in /proc/meminfo (Dirty, Writeback) during the stall.",
        "The file system's journal mode and commit interval (mount options data=, commit=).",
    )
    remediation = (
        "Keep bulk writers off the file system of latency-sensitive fsyncs (separate volume), make "
        "them write back early and steadily (lower vm.dirty_background_bytes, sync_file_range, "
        "O_DIRECT), or rate-limit them; on ext4 consider a separate journal device."
    )
    references = (
        "https://docs.kernel.org/admin-guide/sysctl/vm.html",
        "https://lwn.net/Articles/682582/",
    )

    thresholds = (
        Threshold("info", 0.01, "share", "of the affected threads' time waiting: worth a look"),
        Threshold("warning", 50, "ms", "p99 of the traced sync calls (else the longest wait)"),
        Threshold("critical", 500, "ms", "p99 of the traced sync calls (else the longest wait)"),
        Threshold("min_blocked", 20, "ms", "blocked in all, below which nothing is reported"),
    )
    confidence_rule = (
        "0.5; +0.2 when two or more threads or 20 or more waits are affected; +0.2 with traced sync "
        "calls or writeback settings in the snapshot"
    )

    def latency_ns(self, p: Profile, match: Match) -> int:
        """How long a sync takes: the traced calls' p99 when traced, else the longest blocked wait.
        An fsync always waits for its journal commit; what hurts is how long that takes."""
        traced = [
            s.p99_ns for name in SYNC_CALLS if (s := p.durations("syscall", name)) is not None and s.count
        ]
        return max(traced) if traced else match.longest_ns

    def grade(self, p: Profile, stall: Stall, match: Match) -> Severity | None:
        ms = self.latency_ns(p, match) / 1e6
        by_latency = grade(ms, self.threshold("warning"), self.threshold("critical"))
        if by_latency is not None:
            return by_latency
        return Severity.INFO if stall.share >= self.threshold("info") else None

    def measure(self, p: Profile) -> Measure | None:
        if not p.has_offcpu and p.durations("syscall", "fsync") is None:
            return None
        ns = self.latency_ns(p, self.match(p))
        return Measure(ns, f"{duration(ns)} per sync at p99 (or longest wait)")

    def corroborate(self, p: Profile, links: Links) -> list[Evidence]:
        out = []
        for name in SYNC_CALLS:
            stats = p.durations("syscall", name)
            if stats is not None and stats.count:
                out.append(
                    Evidence(
                        f"{name} calls",
                        f"{stats.count:,} calls, p50 {duration(stats.p50_ns)}, p99 {duration(stats.p99_ns)}, "
                        f"longest {duration(stats.max_ns)}",
                        stats.p99_ns,
                        "ns",
                    )
                )
        dirty = {k: v for k in DIRTY_SETTINGS if (v := p.setting("vm", k)) is not None}
        if dirty:
            out.append(Evidence("Writeback settings", ", ".join(f"vm.{k} = {v}" for k, v in dirty.items())))
        return out
