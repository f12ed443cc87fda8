"""High system time: a process spends most of its CPU in the kernel (a symptom: the named kernel causes,
spin locks, compaction, probes, explain it and rank above it).

Tiny syscalls at a high rate (one-byte reads, gettimeofday through the syscall path, stat storms),
page-table work or lock spinning show as CPU samples whose innermost frame is a kernel function.
The syscalls under the kernel samples say which calls to batch or avoid.
"""

from __future__ import annotations

import math
from collections import Counter

import numpy as np

from stallscope.analysis.findings.detector import Detector, Links, Measure, Threshold, grade
from stallscope.analysis.findings.finding import Evidence, Finding
from stallscope.analysis.findings.profile import Profile, Terms
from stallscope.analysis.findings.wording import count, pct, thread_refs, threads_phrase, top_names

SYSCALL_ENTRY = Terms("__x64_sys_", "__arm64_sys_", "__ia32_sys_", "__se_sys_", "__do_sys_", "ksys_")
MIN_PROCESS_SAMPLES = 30
"""A process needs this many CPU samples before its kernel share means anything."""


def _syscall_name(stack: tuple[str, ...]) -> str | None:
    for name in stack:
        for prefix in ("__x64_sys_", "__arm64_sys_", "__ia32_sys_", "__se_sys_", "__do_sys_", "ksys_"):
            if name.startswith(prefix):
                return name[len(prefix) :]
    return None


class HighSystemTime(Detector):
    id = "high-system-time"
    title = "High system time"
    needs = ("cpu",)
    thresholds = (
        Threshold("info", 0.15, "share", "of a process's CPU samples in the kernel"),
        Threshold(
            "warning",
            0.30,
            "share",
            "of a process's CPU samples in the kernel (never critical: a "
            "symptom, which a named kernel cause explains and outranks)",
        ),
        Threshold("min_samples", MIN_PROCESS_SAMPLES, "count", "CPU samples of the process"),
    )
    confidence_rule = "0.6; +0.2 when one syscall explains half of the kernel time"
    next_checks = (
        "The syscall rate per call: perf trace -s -p PID (or strace -c) for a few seconds.",
        "Whether the time is in page faults or locks rather than syscalls (the kernel flame graph).",
    )
    remediation = (
        "Make fewer, larger syscalls (buffered I/O, batching, vDSO clock reads, caching stat results); "
        "for page-fault time see the memory findings; for lock spinning the spin-lock finding."
    )
    references = ("https://www.brendangregg.com/blog/2014-05-11/strace-wow-much-syscall.html",)

    def _processes(self, p: Profile) -> dict[tuple[int | None, str], list[int]]:
        """(pid, comm) → [samples, kernel samples, weight, kernel weight], of processes that run user
        code: a kernel thread (kworker, kswapd, jbd2) is all kernel by nature."""
        keys, process = p.cpu_processes()
        kernel = p.cpu_in_kernel()
        totals = np.zeros((len(keys), 4), dtype=np.int64)
        for column, values, rows in (
            (0, p.cpu_sample_counts(), process),
            (1, p.cpu_sample_counts()[kernel], process[kernel]),
            (2, p.cpu_weights(), process),
            (3, p.cpu_weights()[kernel], process[kernel]),
        ):
            np.add.at(totals[:, column], rows, values)
        user = np.zeros(len(keys), dtype=bool)
        user[process[p.cpu_runs_user_code()]] = True
        return {key: totals[i].tolist() for i, key in enumerate(keys) if user[i]}

    def _worst(self, p: Profile) -> tuple[tuple[int | None, str], float] | None:
        """The process with the highest kernel share among those with enough samples."""
        best: tuple[tuple[int | None, str], float] | None = None
        for key, (samples, _, weight, kernel_weight) in self._processes(p).items():
            if samples < self.threshold("min_samples") or not weight:
                continue
            share = kernel_weight / weight
            if best is None or share > best[1]:
                best = (key, share)
        return best

    def measure(self, p: Profile) -> Measure | None:
        if p.cpu_total == 0:
            return None
        worst = self._worst(p)
        share = worst[1] if worst else 0.0
        return Measure(share, f"{pct(share)} kernel share in the busiest-in-kernel process")

    def detect(self, p: Profile, baseline: Profile | None, links: Links) -> Finding | None:
        worst = self._worst(p)
        if worst is None:
            return None
        (pid, comm), share = worst
        severity = grade(share, self.threshold("warning"), math.inf, self.threshold("info"))
        if severity is None:
            return None
        kernel = p.cpu_kernel()
        mine = [
            (key, w)
            for key, w in kernel.by_thread.items()
            if key[0] == pid and (pid is not None or key[2] == comm)
        ]
        who = f"{comm} ({pid})" if pid is not None else comm
        calls: Counter[str] = Counter()
        keys, process = p.cpu_processes()
        worst_rows = (process == keys.index((pid, comm))) & p.cpu_in_kernel()
        for stack, weight in p.cpu_stack_weights(worst_rows).items():
            calls[_syscall_name(stack) or "(not a syscall)"] += weight
        flame = links.flame(pid=pid) if pid is not None else links.flame(comm=comm)
        evidence = [
            Evidence(
                "Kernel share",
                f"{pct(share)} of {who}'s CPU samples are in the kernel",
                share,
                "share",
            ),
            Evidence(
                "Host-wide",
                f"{pct(kernel.share)} of {count(p.cpu_samples, 'CPU sample')} are in the kernel",
                kernel.share,
                "share",
            ),
            Evidence("In the kernel, by syscall", top_names(calls, sum(calls.values()))),
        ]
        top_call, top_weight = calls.most_common(1)[0] if calls else ("", 0)
        confidence = 0.6 + (
            0.2 if calls and top_weight / sum(calls.values()) >= 0.5 and top_call != "(not a syscall)" else 0
        )
        threads = [key for key, _ in sorted(mine, key=lambda kv: -kv[1])[:8]]
        summary = f"{who} spends {pct(share)} of its CPU time in the kernel"
        summary += f", mostly in {top_call}." if top_call and top_call != "(not a syscall)" else "."
        if threads:
            evidence.append(Evidence("Threads", threads_phrase(threads)))
        return self.finding(
            severity=severity,
            confidence=confidence,
            summary=summary,
            evidence=evidence,
            view=flame,
            threads=thread_refs(p.name, threads),
            score=share,
        )
