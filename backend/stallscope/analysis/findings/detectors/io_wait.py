"""I/O wait: threads blocked on block-device reads and writes (`io_schedule`) for much of their time.

A thread in D under `io_schedule` is waiting for its own I/O to complete: a slow or saturated
device, cold page cache, O_DIRECT reads of small blocks. (Waits for other writers' writeback and
journal commits are the fsync-behind-writeback finding.)
"""

from __future__ import annotations

from stallscope.analysis.findings.blocked import BlockedDetector
from stallscope.analysis.findings.detector import Links
from stallscope.analysis.findings.finding import Evidence
from stallscope.analysis.findings.profile import Profile, Terms

IOWAIT_METRICS = ("cpu.iowait", "cpu.iowait_pct", "%iowait", "iowait")


class IoWait(BlockedDetector):
    id = "io-wait"
    title = "I/O wait"
    terms = Terms(
        "io_schedule",
        "blk_mq_get_tag",
        "bit_wait_io",
        "__blkdev_direct_IO",
        "iomap_dio_rw",
        "submit_bio_wait",
    )
    skip = Terms("io_schedule", "folio_wait_bit", "wait_on_page_bit", "bit_wait", "schedule")
    states = ("D",)
    what = "waiting for block I/O"
    next_checks = (
        "Device latency and queue depth during the stall (iostat -x: r_await, w_await, aqu-sz, %util).",
        "Whether the reads should have hit the page cache (memory pressure, a cold start, O_DIRECT).",
        "Which files: the blocking stacks' callers, or perf trace -e read,pread64 with file names.",
    )
    remediation = (
        "Serve the hot data from memory (warm the cache, larger reads, readahead), move it to a faster "
        "device, or take the blocking I/O off latency-sensitive threads (async I/O, io_uring, a "
        "separate I/O thread)."
    )
    references = ("https://www.brendangregg.com/blog/2017-08-08/linux-load-averages.html",)

    def corroborate(self, p: Profile, links: Links) -> list[Evidence]:
        out = []
        for name in sorted(p.metric_names()):
            if name.lower() in IOWAIT_METRICS or name.lower().endswith(".iowait"):
                for m in p.metrics(name)[:1]:
                    if m.maximum >= 5:
                        labels = f" ({', '.join(f'{k}={v}' for k, v in m.labels)})" if m.labels else ""
                        out.append(
                            Evidence(
                                "CPU iowait",
                                f"{name}{labels}: mean {m.mean:.1f}, peak {m.maximum:.1f}",
                                m.maximum,
                                "percent",
                                view=links.metrics(m),
                            )
                        )
        return out[:1]
