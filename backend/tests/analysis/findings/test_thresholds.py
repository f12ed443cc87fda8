"""Detector thresholds at their edges, on tiny hand-written digests: each side of each line."""

from __future__ import annotations

import pytest

from stallscope.analysis.findings.detector import Links
from stallscope.analysis.findings.detectors.mmap_lock import MmapLockContention
from stallscope.analysis.findings.detectors.runqueue import RunqueueStarvation
from stallscope.analysis.findings.detectors.spin_lock import GlobalSpinLock
from stallscope.analysis.findings.digest import CaptureDigest, CpuRow, ThreadSummary, WaitRow
from stallscope.analysis.findings.engine import run_findings
from stallscope.analysis.findings.finding import Severity
from stallscope.analysis.findings.profile import Profile

MS = 1_000_000
LINKS = Links(7, ["db-1"], None)
SPIN = ("main", "__x64_sys_fcntl", "posix_lock_inode", "_raw_spin_lock", "native_queued_spin_lock_slowpath")
WORK = ("main", "compute")
MMAP = ("worker", "__x64_sys_munmap", "down_write_killable", "rwsem_down_write_slowpath", "schedule")
SLEEP = ("worker", "__x64_sys_nanosleep", "schedule")


def digest(host: str = "db-1") -> CaptureDigest:
    return CaptureDigest(1, "capture", host, "perf-script", 0, 10_000 * MS)


def add_stack(d: CaptureDigest, names: tuple[str, ...]) -> int:
    ids = []
    for name in names:
        key = (name, "kernel" if name[0] in "_nrdps" else "user")
        if key not in d.frames:
            d.frames.append(key)
        ids.append(d.frames.index(key))
    d.stacks.append(tuple(ids))
    return len(d.stacks) - 1


def cpu_digest(spinning: int, total: int) -> CaptureDigest:
    d = digest()
    spin, work = add_stack(d, SPIN), add_stack(d, WORK)
    d.cpu = [
        CpuRow("cpu-clock", 10, 11, "app", spin, spinning * 1_000_000, spinning),
        CpuRow("cpu-clock", 10, 11, "app", work, (total - spinning) * 1_000_000, total - spinning),
    ]
    return d


@pytest.mark.parametrize(
    ("spinning", "expected"),
    [
        (10, None),
        (19, None),
        (20, Severity.INFO),
        (49, Severity.INFO),
        (50, Severity.WARNING),
        (150, Severity.CRITICAL),
    ],
)
def test_spin_lock_share_grades(spinning: int, expected: Severity | None) -> None:
    # 1000 samples: 2% is info, 5% warning, 15% critical; fewer than 20 matching samples are noise.
    finding = GlobalSpinLock().detect(Profile("db-1", [cpu_digest(spinning, 1000)]), None, LINKS)
    assert (finding.severity if finding else None) == expected
    if finding is not None:
        assert "posix_lock_inode" in finding.summary
        assert finding.view.url() == "/flame?hosts=db-1&incident=7&q=native_queued_spin_lock_slowpath"


def blocked_digest(blocked_ms: int, wall_ms: int) -> CaptureDigest:
    d = digest()
    mmap, sleep = add_stack(d, MMAP), add_stack(d, SLEEP)
    d.waits = [
        WaitRow(
            "off-cpu",
            "sched_switch",
            10,
            12,
            "query-1",
            "D",
            mmap,
            50,
            blocked_ms * MS,
            5 * MS,
            blocked_ms * MS,
        ),
        WaitRow(
            "off-cpu", "sched_switch", 10, 12, "query-1", "S", sleep, 10, (wall_ms - blocked_ms) * MS, MS, 0
        ),
    ]
    d.threads = [ThreadSummary(10, 12, "query-1", wall_ms * MS, {}, 60, (0, None, None, None, None), [], [])]
    d.thread_source = "sched"
    return d


@pytest.mark.parametrize(
    ("blocked_ms", "expected"),
    [
        (19, None),
        (49, Severity.INFO),
        (50, Severity.WARNING),
        (199, Severity.WARNING),
        (200, Severity.CRITICAL),
    ],
)
def test_mmap_lock_share_of_the_threads_time_grades(blocked_ms: int, expected: Severity | None) -> None:
    # One thread of 1 s: blocked 1% is info, 5% a warning, 20% critical; under 20 ms in all nothing.
    finding = MmapLockContention().detect(Profile("db-1", [blocked_digest(blocked_ms, 1000)]), None, LINKS)
    assert (finding.severity if finding else None) == expected


def test_rwsem_waits_outside_memory_mapping_are_not_mmap_lock() -> None:
    d = blocked_digest(300, 1000)
    d.stacks[0] = tuple(d.frames.index(f) for f in [("worker", "user"), ("schedule", "kernel")])
    other = add_stack(d, ("worker", "__x64_sys_rename", "lock_rename", "rwsem_down_write_slowpath"))
    d.waits[0].stack = other
    assert MmapLockContention().detect(Profile("db-1", [d]), None, LINKS) is None


def test_a_baseline_with_the_same_pattern_lowers_the_severity() -> None:
    bad = [blocked_digest(300, 1000)]
    alone = run_findings(bad).findings[0]
    against_same = run_findings(bad, [blocked_digest(280, 1000)]).findings
    against_clean = run_findings(bad, [blocked_digest(0, 1000)]).findings
    mine = next(f for f in against_same if f.id == "mmap-lock-contention")
    clean = next(f for f in against_clean if f.id == "mmap-lock-contention")
    assert alone.severity is Severity.CRITICAL
    assert mine.severity is Severity.WARNING
    assert mine.confidence < alone.confidence
    assert mine.baseline is not None
    assert mine.baseline.startswith("Also on the baseline")
    assert clean.severity is Severity.CRITICAL
    assert clean.confidence > alone.confidence


def runnable_digest(runnable_ms: int, p99_ms: int) -> CaptureDigest:
    d = digest()
    d.thread_source = "sched"
    states = {"running": 100 * MS, "runnable": runnable_ms * MS, "sleeping": (900 - runnable_ms) * MS}
    d.threads = [
        ThreadSummary(5, 6, "ticker", 1000 * MS, states, 400, (200, MS, MS, p99_ms * MS, p99_ms * MS), [], [])
    ]
    return d


@pytest.mark.parametrize(
    ("runnable_ms", "p99_ms", "expected"),
    [
        (10, 1, None),
        (50, 1, Severity.INFO),
        (150, 1, Severity.WARNING),
        (10, 10, Severity.WARNING),
        (10, 50, Severity.CRITICAL),
        (400, 1, Severity.CRITICAL),
    ],
)
def test_runqueue_grades_by_runnable_share_or_latency(
    runnable_ms: int, p99_ms: int, expected: Severity | None
) -> None:
    finding = RunqueueStarvation().detect(
        Profile("db-1", [runnable_digest(runnable_ms, p99_ms)]), None, LINKS
    )
    assert (finding.severity if finding else None) == expected
