"""Every detector, in the order the docs' table lists them."""

from __future__ import annotations

from stallscope.analysis.findings.detector import Detector
from stallscope.analysis.findings.detectors.fsync_writeback import FsyncBehindWriteback
from stallscope.analysis.findings.detectors.gc_allocation import HotAllocationGc
from stallscope.analysis.findings.detectors.instrumentation import InstrumentationOverhead
from stallscope.analysis.findings.detectors.io_wait import IoWait
from stallscope.analysis.findings.detectors.lazy_binding import LazyPltBinding
from stallscope.analysis.findings.detectors.lock_convoy import LockConvoy
from stallscope.analysis.findings.detectors.memory_pressure import MemoryPressure
from stallscope.analysis.findings.detectors.mmap_lock import MmapLockContention
from stallscope.analysis.findings.detectors.runqueue import RunqueueStarvation
from stallscope.analysis.findings.detectors.spin_lock import GlobalSpinLock
from stallscope.analysis.findings.detectors.system_time import HighSystemTime
from stallscope.analysis.findings.detectors.thp_compaction import ThpCompaction
from stallscope.analysis.findings.detectors.thundering_herd import ThunderingHerd
from stallscope.analysis.findings.detectors.what_changed import WhatChanged

DETECTORS: tuple[Detector, ...] = (
    MmapLockContention(),
    LazyPltBinding(),
    ThpCompaction(),
    GlobalSpinLock(),
    FsyncBehindWriteback(),
    InstrumentationOverhead(),
    ThunderingHerd(),
    LockConvoy(),
    RunqueueStarvation(),
    MemoryPressure(),
    HotAllocationGc(),
    HighSystemTime(),
    IoWait(),
    WhatChanged(),
)
