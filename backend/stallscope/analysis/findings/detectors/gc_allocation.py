"""Hot allocation and garbage collection: a managed runtime spends its CPU collecting garbage.

An allocation-heavy request path in the JVM (or Go) fills the young generation quickly, so GC
threads (`GC Thread#0`, `G1 Conc#0`, `VM Thread`) burn CPU and application threads stop at
safepoints; allocation frames (`MemAllocator::allocate`, TLAB refills, `runtime.mallocgc`) show
where the garbage comes from.
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from stallscope.analysis.findings.detector import Detector, Links, Measure, Threshold, grade
from stallscope.analysis.findings.finding import Evidence, Finding
from stallscope.analysis.findings.profile import Match, Profile, Terms
from stallscope.analysis.findings.wording import (
    count,
    pct,
    stack_text,
    thread_refs,
    threads_phrase,
    top_names,
)

GC_THREADS = Terms(
    "gc thread",
    "g1 ",
    "gc ",
    "vm thread",
    "pargc",
    "concurrentgc",
    "shenandoah",
    "zgc",
    "conc#",
    "g1 refine",
    "g1 young",
    "g1 conc",
)
GC_FRAMES = Terms(
    "G1ParScanThreadState",
    "G1ParEvacuateFollowersClosure",
    "G1YoungCollector",
    "G1CollectedHeap::do_collection",
    "PSScavenge",
    "PSPromotionManager",
    "ScavengeRootsTask",
    "DefNewGeneration",
    "GenCollectedHeap",
    "ShenandoahHeap",
    "ZCollectedHeap",
    "runtime.gcBgMarkWorker",
    "runtime.gcDrain",
    "runtime.scanobject",
    "runtime.markroot",
)
ALLOCATION_FRAMES = Terms(
    "MemAllocator::allocate",
    "MemAllocator::mem_allocate",
    "InstanceKlass::allocate_instance",
    "OptoRuntime::new_instance_C",
    "OptoRuntime::new_array",
    "TypeArrayKlass::allocate",
    "ObjArrayKlass::allocate",
    "CollectedHeap::allocate",
    "allocate_new_tlab",
    "runtime.mallocgc",
    "runtime.newobject",
    "runtime.makeslice",
)
JAVA_PROCESS = Terms("java", "jvm", "libjvm")
MIN_SAMPLES = 20


class HotAllocationGc(Detector):
    id = "hot-allocation-gc"
    title = "Garbage collection and hot allocation"
    needs = ("cpu",)
    thresholds = (
        Threshold("info", 0.05, "share", "of the runtime process's CPU samples in GC"),
        Threshold("warning", 0.10, "share", "of the runtime process's CPU samples in GC"),
        Threshold("critical", 0.25, "share", "of the runtime process's CPU samples in GC"),
        Threshold("min_samples", MIN_SAMPLES, "count", "GC samples, below which nothing is reported"),
    )
    confidence_rule = "0.6; +0.2 when allocation frames show in the application threads"
    next_checks = (
        "GC logs (-Xlog:gc*) for pause times and frequency, heap after GC, promotion rate.",
        "The allocation flame graph (async-profiler -e alloc, or JFR ObjectAllocationSample) for the "
        "allocating call sites.",
    )
    remediation = (
        "Allocate less on the hot path (reuse buffers, avoid boxing and temporary strings, size "
        "collections), then size the heap and young generation for the allocation rate; pick a "
        "low-pause collector (G1 pause goals, ZGC) if pauses rather than CPU are the symptom."
    )
    references = (
        "https://docs.oracle.com/en/java/javase/17/gctuning/",
        "https://github.com/async-profiler/async-profiler",
    )

    def _gc(self, p: Profile) -> tuple[int, Match]:
        """(the runtime processes' CPU weight, their samples in GC: threads, stacks, weight)."""
        thread_keys, thread = p.cpu_threads()
        gc_thread = np.array([GC_THREADS(comm) for _, _, comm in thread_keys], dtype=bool)[thread]
        gc_frames = p.cpu_hits(GC_FRAMES)
        runtime = gc_thread | gc_frames | p.cpu_hits(ALLOCATION_FRAMES)
        process_keys, process = p.cpu_processes()
        runtime_pids = {process_keys[i][0] for i in np.unique(process[runtime]).tolist()}
        in_runtime = np.array([pid in runtime_pids for pid, _ in process_keys], dtype=bool)[process]
        total = int(p.cpu_weights()[in_runtime].sum())
        return total, p.cpu_where(in_runtime & (gc_thread | gc_frames), total)

    def measure(self, p: Profile) -> Measure | None:
        if p.cpu_total == 0:
            return None
        total, gc = self._gc(p)
        share = gc.weight / total if total else 0.0
        return Measure(share, f"{pct(share)} of the runtime's CPU in GC")

    def detect(self, p: Profile, baseline: Profile | None, links: Links) -> Finding | None:
        total, gc = self._gc(p)
        threads = gc.by_thread
        thread_keys, thread = p.cpu_threads()
        of_gc_threads = np.array([key in threads for key in thread_keys], dtype=bool)[thread]
        samples = int(p.cpu_sample_counts()[of_gc_threads].sum())
        if not total or samples < self.threshold("min_samples"):
            return None
        share = gc.weight / total
        severity = grade(share, self.threshold("warning"), self.threshold("critical"), self.threshold("info"))
        if severity is None:
            return None
        alloc = p.cpu_matching(ALLOCATION_FRAMES)
        comms: Counter[str] = Counter()
        for (_, _, comm), w in threads.items():
            comms[comm] += w
        pid = next(iter(threads))[0] if threads else None
        flame = links.flame(pid=pid)
        evidence = [
            Evidence(
                "CPU in GC",
                f"{pct(share)} of the runtime process's CPU samples ({count(samples, 'sample')})",
                share,
                "share",
            ),
            Evidence("GC threads", top_names(comms, gc.weight)),
        ]
        if gc.stacks:
            evidence.append(
                Evidence("Heaviest GC stack", stack_text(gc.stacks.most_common(1)[0][0]), view=flame)
            )
        confidence = 0.6
        if alloc.count:
            confidence += 0.2
            allocating = [key for key, _ in alloc.by_thread.most_common(5)]
            evidence.append(
                Evidence(
                    "Allocating",
                    f"{pct(alloc.share)} of CPU samples allocate; {threads_phrase(allocating)}; from "
                    f"{top_names(alloc.callers, alloc.weight)}",
                    alloc.share,
                    "share",
                )
            )
        keys = [key for key, _ in threads.most_common(8)]
        return self.finding(
            severity=severity,
            confidence=confidence,
            summary=f"The runtime spends {pct(share)} of its CPU time collecting garbage "
            f"({threads_phrase(keys)}).",
            evidence=evidence,
            view=flame,
            threads=thread_refs(p.name, keys),
            score=share,
        )
