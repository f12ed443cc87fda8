"""Why a setting matters for latency: one line for the settings behind the stalls this console is
for, shown beside them in a config diff so a reader knows what a change can cause. Pure."""

from __future__ import annotations

from stallscope.analysis.config_keys import SEP

_HINTS: dict[tuple[str, str], str] = {
    ("transparent_hugepage", "enabled"): (
        "always: every anonymous fault may take a huge page, which needs free contiguous memory "
        "(compaction) and zeroes 2 MiB at once"
    ),
    ("transparent_hugepage", "defrag"): (
        "always: a fault that wants a huge page compacts memory synchronously, so a thread stalls in "
        "the kernel for milliseconds (compaction stalls); madvise or defer keep that off most faults"
    ),
    ("transparent_hugepage", "khugepaged_defrag"): "1: khugepaged may compact memory to collapse huge pages",
    ("cpu", "governors"): (
        "powersave, ondemand and schedutil raise the clock only after load arrives: slower and more "
        "variable latency than performance"
    ),
    ("vm", "dirty_ratio"): (
        "share of memory a writer may dirty before it is throttled in balance_dirty_pages: high values "
        "build large writeback bursts and long write stalls"
    ),
    ("vm", "dirty_bytes"): "as dirty_ratio, in bytes (non-zero overrides it)",
    (
        "vm",
        "dirty_background_ratio",
    ): "when background writeback starts; close to dirty_ratio means writers hit throttling",
    ("vm", "dirty_background_bytes"): "as dirty_background_ratio, in bytes (non-zero overrides it)",
    ("vm", "dirty_expire_centisecs"): "how old dirty data gets before writeback must take it",
    ("vm", "dirty_writeback_centisecs"): "how often the flusher threads wake",
    ("vm", "swappiness"): "how readily anonymous memory is swapped rather than page cache dropped",
    (
        "vm",
        "zone_reclaim_mode",
    ): "non-zero: allocations reclaim on the local NUMA node before using another (reclaim stalls)",
    ("vm", "min_free_kbytes"): "the free-memory floor; below it allocations reclaim directly",
    ("kernel_sysctl", "numa_balancing"): "1: NUMA hinting faults and page migration in the running threads",
    ("tracing", "set_event"): "enabled trace events: every hit writes a record (overhead on hot paths)",
    ("tracing", "kprobe_events"): "kprobes: every call of the probed function takes a trap (probe overhead)",
    (
        "tracing",
        "uprobe_events",
    ): "uprobes: every hit traps into the kernel from user space (microseconds each)",
    ("tracing", "current_tracer"): "function or function_graph tracers instrument every kernel function call",
    ("bpf", "program"): "a loaded BPF program runs on every event it is attached to (probe overhead)",
    ("environment", "LD_BIND_NOW"): (
        "unset: functions are bound on their first call through the PLT resolver, a stall the first "
        "time each is called; 1 binds everything at start"
    ),
    ("environment", "LD_PRELOAD"): "preloaded libraries (an allocator, a tracer) sit in front of libc calls",
    (
        "environment",
        "MALLOC_ARENA_MAX",
    ): "glibc malloc arenas: fewer means more lock contention between threads",
    ("environment", "GLIBC_TUNABLES"): "glibc allocator and threading tunables",
}


def hint_for(section: str, key: str) -> str | None:
    """The hint for a flattened key, matching on its first part (`set_event · sched:…` → set_event),
    a tracing instance's files as the top-level ones, and a process's environment as the host's."""
    parts = key.split(SEP)
    first = parts[0].rsplit("/", 1)[-1]
    found = _HINTS.get((section, first))
    if found is None and section == "processes" and len(parts) >= 3 and parts[1] == "environment":
        found = _HINTS.get(("environment", parts[2]))
    if (
        found is None
        and section == "cgroup"
        and (".max" in first or "limit_in_bytes" in first or ".high" in first)
    ):
        found = (
            "a cgroup close to its memory limit reclaims inside the cgroup: direct-reclaim stalls "
            "in its threads"
        )
    return found
