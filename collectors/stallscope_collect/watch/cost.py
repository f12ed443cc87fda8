"""The collector's own CPU time, for the line each round logs."""

from __future__ import annotations

import resource


def own_cpu_seconds() -> float:
    """User and system time of this process and of the children it has waited for: perf record,
    perf script and the snapshot's commands (each round waits for all of them before it logs)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime
