"""Lazy PLT binding stalls: the first call of each library function resolves its symbol, and the
resolver's page faults block under page-cache pressure.

With lazy binding (the default unless LD_BIND_NOW or -z now), the first call through each PLT entry
runs `_dl_runtime_resolve` → `_dl_fixup` → `_dl_lookup_symbol_x`, which reads the library's symbol
and hash tables; when those pages were evicted, each lookup is a major fault, and a latency-critical
thread stalls for milliseconds on a call that normally takes nanoseconds.
"""

from __future__ import annotations

from stallscope.analysis.findings.blocked import BlockedDetector
from stallscope.analysis.findings.detector import Links, Measure, Threshold, grade
from stallscope.analysis.findings.finding import Evidence, Severity
from stallscope.analysis.findings.profile import Match, Profile, Terms
from stallscope.analysis.findings.stalls import Stall
from stallscope.analysis.findings.wording import count, duration

RESOLVER = Terms(
    "_dl_runtime_resolve",
    "_dl_fixup",
    "_dl_lookup_symbol_x",
    "do_lookup_x",
    "_dl_runtime_profile",
    "check_match",
)
PAGE_IN = Terms(
    "filemap_fault",
    "do_read_fault",
    "do_fault",
    "handle_mm_fault",
    "exc_page_fault",
    "folio_wait",
    "io_schedule",
)
"""A resolver wait counts when it is paging in; a lookup preempted off the CPU is CPU contention."""
PAGE_IN = Terms(
    "filemap_fault",
    "do_read_fault",
    "do_fault",
    "handle_mm_fault",
    "exc_page_fault",
    "folio_wait",
    "io_schedule",
)
"""A resolver wait counts when the resolver is paging in (a preempted lookup is CPU contention)."""


class LazyPltBinding(BlockedDetector):
    id = "lazy-plt-binding"
    title = "Lazy symbol binding stalls"
    terms = RESOLVER
    also = PAGE_IN
    states = ("D",)
    needs = ("offcpu", "faults", "snapshot")
    what = "blocked in lazy symbol resolution"
    next_checks = (
        "Whether the process runs with LD_BIND_NOW (its environment in the snapshot) and how its "
        "libraries were linked (readelf -d: BIND_NOW, FLAGS_1 NOW).",
        "Page-cache pressure on the library files (major faults on the .so, vmtouch).",
    )
    remediation = (
        "Bind at start: run with LD_BIND_NOW=1 or link with -Wl,-z,now, and warm the libraries "
        "(call the hot paths once, or mlock the mappings) before the latency-critical loop starts."
    )
    references = (
        "https://man7.org/linux/man-pages/man8/ld.so.8.html",
        "https://www.akkadia.org/drepper/dsohowto.pdf",
    )

    thresholds = (
        Threshold("info", 5, "ms", "blocked in the resolver while paging in, in all"),
        Threshold("warning", 20, "ms", "blocked in the resolver while paging in, in all"),
        Threshold("critical", 100, "ms", "blocked in the resolver while paging in, in all"),
        Threshold("min_blocked", 5, "ms", "below which nothing is reported"),
    )

    def grade(self, p: Profile, stall: Stall, match: Match) -> Severity | None:
        """By the time stalled, not its share: a 150 ms stall once a day is the incident, however
        long the thread ran around it."""
        ms = stall.blocked_ns / 1e6
        return grade(ms, self.threshold("warning"), self.threshold("critical"), self.threshold("info"))

    def measure(self, p: Profile) -> Measure | None:
        if not p.has_offcpu:
            return None
        ns = self.stall(p).blocked_ns
        return Measure(ns, f"{duration(ns)} blocked in the resolver")

    def corroborate(self, p: Profile, links: Links) -> list[Evidence]:
        out = []
        faults = p.faults_matching(RESOLVER)
        if faults.count:
            out.append(
                Evidence(
                    "Page faults in the resolver",
                    f"{count(faults.count, 'page fault')} with {RESOLVER.terms[0]} or _dl_fixup in the stack",
                    faults.count,
                    "count",
                )
            )
        bind_now = {k: v for (section, k), v in p.settings.items() if k.endswith("LD_BIND_NOW")}
        if p.has_snapshot and not any(v not in (None, "", "0") for v in bind_now.values()):
            out.append(
                Evidence("LD_BIND_NOW", "not set in the snapshot's process environments: lazy binding")
            )
        return out
