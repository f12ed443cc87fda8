"""THP compaction: faults that want a huge page compact memory synchronously.

With transparent_hugepage/defrag = always, an anonymous fault that finds no free 2 MiB block
migrates pages to make one (`try_to_compact_pages`, `compaction_alloc`,
`isolate_migratepages_range`), in the faulting thread, for milliseconds at a time. It shows as CPU
(and D) time under the page-fault path after an update or on a long-running, fragmented host.
"""

from __future__ import annotations

from stallscope.analysis.findings.detector import Links
from stallscope.analysis.findings.finding import Evidence
from stallscope.analysis.findings.on_cpu import OnCpuDetector, cpu_thresholds
from stallscope.analysis.findings.profile import Match, Profile, Terms
from stallscope.analysis.findings.wording import duration, pct

COMPACTION = Terms(
    "compaction_alloc",
    "isolate_migratepages",
    "try_to_compact_pages",
    "__alloc_pages_direct_compact",
    "compact_zone",
    "isolate_freepages",
    "kcompactd",
)


class ThpCompaction(OnCpuDetector):
    id = "thp-compaction"
    title = "Memory compaction for huge pages"
    terms = COMPACTION
    skip = Terms(
        "compact", "isolate_", "migrate", "alloc_pages", "get_page_from_freelist", "folio_alloc", "vma_alloc"
    )
    what = "compacting memory (huge-page allocations)"
    thresholds = cpu_thresholds(warning=0.03, critical=0.10, info=0.01)
    needs = ("cpu", "offcpu", "snapshot")
    next_checks = (
        "/sys/kernel/mm/transparent_hugepage/defrag and enabled on both hosts (the config diff).",
        "compact_stall, compact_fail, thp_fault_fallback in /proc/vmstat before and after.",
        "Memory fragmentation: /proc/buddyinfo (few high-order free blocks).",
    )
    remediation = (
        "Set transparent_hugepage/defrag to defer or madvise (echo defer > "
        "/sys/kernel/mm/transparent_hugepage/defrag) so faults fall back to small pages, or disable "
        "THP for the process (prctl PR_SET_THP_DISABLE); keep khugepaged for background collapse."
    )
    references = ("https://docs.kernel.org/admin-guide/mm/transhuge.html",)

    def corroborate(self, p: Profile, match: Match, links: Links) -> list[Evidence]:
        out = []
        defrag = p.setting("transparent_hugepage", "defrag")
        if defrag in ("always", "defer+madvise"):
            out.append(
                Evidence(
                    "THP defrag", f"transparent_hugepage/defrag = {defrag}: faults compact synchronously"
                )
            )
        blocked = p.offcpu_matching(COMPACTION)
        if blocked.weight:
            out.append(
                Evidence(
                    "Blocked while compacting",
                    f"{duration(blocked.weight)} off-CPU with compaction in the stack "
                    f"({pct(blocked.share)} of off-CPU time)",
                    blocked.weight,
                    "ns",
                )
            )
        return out
