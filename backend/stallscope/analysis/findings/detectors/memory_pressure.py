"""Memory pressure: threads reclaim memory themselves (direct or memcg reclaim) and refault pages.

When a cgroup nears memory.max/memory.high, or the host nears its watermarks, allocating threads
free memory inline (`try_to_free_mem_cgroup_pages`, `do_try_to_free_pages`, `shrink_node`) and
file pages they need again are read back from disk (`filemap_fault` in D). Pressure stall
information (PSI) counts the time lost.
"""

from __future__ import annotations

from stallscope.analysis.findings.blocked import BlockedDetector
from stallscope.analysis.findings.detector import Links
from stallscope.analysis.findings.finding import Evidence
from stallscope.analysis.findings.profile import Profile, Terms
from stallscope.analysis.findings.wording import count, pct

RECLAIM = Terms(
    "try_to_free_mem_cgroup_pages",
    "try_to_free_pages",
    "do_try_to_free_pages",
    "__alloc_pages_direct_reclaim",
    "mem_cgroup_handle_over_high",
    "reclaim_high",
    "shrink_node",
    "shrink_lruvec",
    "shrink_folio_list",
    "shrink_page_list",
    "filemap_fault",
    "do_swap_page",
    "swap_readpage",
    "swap_read_folio",
)
PSI_SOME = "pressure.memory.some.avg10"
PSI_WARNING = 10.0
"""PSI memory `some` avg10 (percent of time some task stalled on memory) worth reporting."""


class MemoryPressure(BlockedDetector):
    id = "memory-pressure"
    title = "Memory pressure and reclaim"
    terms = RECLAIM
    needs = ("offcpu", "cpu", "faults", "metrics")
    what = "reclaiming memory or waiting for refaulted pages"
    next_checks = (
        "The cgroup's memory.max/memory.high against memory.current, and memory.events (high, max, oom).",
        "PSI: /proc/pressure/memory and the cgroup's memory.pressure.",
        "workingset_refault and pgscan_direct in /proc/vmstat (refaults mean the working set does not fit).",
    )
    remediation = (
        "Give the workload the memory its working set needs (raise memory.max/memory.high, fix the "
        "leak or cache growth), or shrink the working set; keep page cache for the hot files "
        "(separate cgroups for batch jobs that stream data)."
    )
    references = (
        "https://docs.kernel.org/admin-guide/cgroup-v2.html#memory",
        "https://docs.kernel.org/accounting/psi.html",
    )

    def corroborate(self, p: Profile, links: Links) -> list[Evidence]:
        out = []
        cpu = p.cpu_matching(RECLAIM)
        if cpu.count:
            out.append(
                Evidence(
                    "CPU in reclaim",
                    f"{pct(cpu.share)} of CPU samples ({count(cpu.count, 'sample')}) reclaim or "
                    "fault pages back",
                    cpu.share,
                    "share",
                )
            )
        for m in p.metrics(PSI_SOME)[:1]:
            if m.maximum >= PSI_WARNING:
                out.append(
                    Evidence(
                        "Memory pressure (PSI)",
                        f"some avg10 peaked at {m.maximum:.1f}% (mean {m.mean:.1f}%)",
                        m.maximum,
                        "percent",
                        view=links.metrics(m),
                    )
                )
        faults = p.faults_matching(Terms("filemap_fault", "do_swap_page"))
        if faults.count:
            out.append(
                Evidence(
                    "Faults reading pages back",
                    f"{count(faults.count, 'fault')} through filemap_fault or swap-in",
                )
            )
        return out
