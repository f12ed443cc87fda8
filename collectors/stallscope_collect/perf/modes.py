"""The perf modes a record can run, and how messages name them."""

from __future__ import annotations

PERF_MODES = ("cpu", "offcpu", "faults", "syscalls")
DEFAULT_PERF_MODES = ("cpu", "offcpu")


MAX_CPU_HZ = 99


MODE_LABELS = {
    "cpu": "CPU sampling (--cpu)",
    "offcpu": "off-CPU tracing (--offcpu, sched:* tracepoints)",
    "faults": "page-fault sampling (--faults)",
    "syscalls": "syscall tracing (--syscalls, raw_syscalls:* tracepoints)",
}
