"""The system snapshot's shape: the collector's JSON document, which text snapshots are mapped into.

`{"stallscope": "snapshot", "version": 1, "host", "taken_at_ns", "sections": {...}}`, sections as
the collector writes them (`collectors/README.md`, "The snapshot"). Text snapshots add sections the
collector does not read (`sysctl`, `environment`, `mounts`, `cgroup`, `kernel_config`), the text
they could not map (`text_sections`), where they came from (`source`) and which take of the file
they are (`take`). The names below are shared by both importers and the config diff, so that a
collector document and a text snapshot of the same host land on the same keys.
"""

from __future__ import annotations

import re
from typing import Any

KIND = "snapshot"
"""The `Document.kind` of every snapshot, whichever importer read it."""
VERSION = 1

KERNEL_SYSCTL_NAMES = frozenset(
    {
        "perf_event_paranoid",
        "perf_event_max_stack",
        "perf_event_mlock_kb",
        "perf_event_max_sample_rate",
        "kptr_restrict",
        "numa_balancing",
        "sched_autogroup_enabled",
        "sched_rt_runtime_us",
        "sched_rt_period_us",
        "hung_task_timeout_secs",
        "watchdog_thresh",
        "pid_max",
        "threads-max",
    }
)
"""The `/proc/sys/kernel` files the collector reads into `kernel_sysctl`; other `kernel.*` sysctls
of a text snapshot go to `sysctl`, so that one source's extra keys do not read as differences."""

VM_SKIPPED = frozenset({"stat_refresh", "drop_caches", "compact_memory"})
"""`/proc/sys/vm` files the collector never reads (reading or writing them does work)."""

PROCESS_STATUS_FIELDS = frozenset(
    {"Name", "State", "Threads", "VmRSS", "VmSwap", "Cpus_allowed_list", "Mems_allowed_list"}
)
"""The `/proc/PID/status` lines the collector keeps."""

ENV_OF_INTEREST = re.compile(
    r"^(LD_(BIND_NOW|BIND_NOT|PRELOAD|LIBRARY_PATH|AUDIT|DEBUG|DYNAMIC_WEAK)|MALLOC_\w*|GLIBC_TUNABLES"
    r"|TCMALLOC_\w*|JEMALLOC_\w*|MIMALLOC_\w*|JAVA_TOOL_OPTIONS|_JAVA_OPTIONS|JDK_JAVA_OPTIONS"
    r"|GOGC|GOMAXPROCS|GOMEMLIMIT|GODEBUG|PYTHONMALLOC|PYTHONPERFSUPPORT|PYTHONGC\w*|NODE_OPTIONS"
    r"|UV_THREADPOOL_SIZE|OMP_\w*|MKL_NUM_THREADS|OPENBLAS_NUM_THREADS|TZ)$"
)
"""Variables that change how a process allocates, links or schedules: the only ones kept, as the
collector keeps only these (the rest of an environment is where secrets live). Same pattern as the
collector's; a test holds them equal."""
MAX_ENV_VALUE_CHARS = 4096


def document(
    host: str | None, taken_at_ns: int | None, sections: dict[str, Any], **extra: Any
) -> dict[str, Any]:
    """A snapshot document in the collector's layout, with any extra top-level keys."""
    return {
        "stallscope": KIND,
        "version": VERSION,
        "host": host,
        "taken_at_ns": taken_at_ns,
        "sections": sections,
        **extra,
    }
