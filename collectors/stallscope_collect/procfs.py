"""/proc readers: parsers of its files (pure), and the listings of processes and threads."""

from __future__ import annotations

import os
from typing import Tuple

CPU_FIELDS = ("user", "nice", "system", "idle", "iowait", "irq", "softirq", "steal")
PRESSURE_RESOURCES = ("cpu", "memory", "io")


def parse_proc_stat(text: str) -> dict[str, tuple[int, ...]]:
    """The `cpu` lines of /proc/stat: label (`all`, `0`, `1`…) -> user…steal jiffies."""
    out: dict[str, tuple[int, ...]] = {}
    for line in text.splitlines():
        if not line.startswith("cpu"):
            continue
        parts = line.split()
        values = tuple(int(x) for x in parts[1:9])
        out[parts[0][3:] or "all"] = values + (0,) * (8 - len(values))
    return out


def cpu_percentages(
    before: dict[str, tuple[int, ...]], after: dict[str, tuple[int, ...]]
) -> dict[str, dict[str, float]]:
    """Percent of each CPU's time per state between two /proc/stat readings."""
    out: dict[str, dict[str, float]] = {}
    for cpu, now in after.items():
        prev = before.get(cpu)
        if prev is None:
            continue
        deltas = [max(0, a - b) for a, b in zip(now, prev)]
        total = sum(deltas)
        if total > 0:
            out[cpu] = {name: round(100.0 * d / total, 2) for name, d in zip(CPU_FIELDS, deltas)}
    return out


def parse_meminfo(text: str) -> dict[str, int]:
    """/proc/meminfo: field -> value (KiB for `kB` lines, a count for HugePages_*)."""
    out = {}
    for line in text.splitlines():
        name, sep, rest = line.partition(":")
        parts = rest.split()
        if sep and parts:
            try:
                out[name.strip()] = int(parts[0])
            except ValueError:
                continue
    return out


def parse_pressure(text: str) -> list[tuple[str, str, float]]:
    """A /proc/pressure file: (some|full, avg10|avg60|avg300|total, value)."""
    out = []
    for line in text.splitlines():
        parts = line.split()
        if not parts or parts[0] not in ("some", "full"):
            continue
        for item in parts[1:]:
            key, sep, value = item.partition("=")
            if sep:
                try:
                    out.append((parts[0], key, int(value) if key == "total" else float(value)))
                except ValueError:
                    continue
    return out


DiskCounters = Tuple[int, int, int, int, int]
"""reads completed, sectors read, writes completed, sectors written, ms spent doing I/O."""


def parse_diskstats(text: str) -> dict[str, DiskCounters]:
    out: dict[str, DiskCounters] = {}
    for line in text.splitlines():
        parts = line.split()
        if len(parts) < 14:
            continue
        f = parts[3:]
        try:
            out[parts[2]] = (int(f[0]), int(f[2]), int(f[4]), int(f[6]), int(f[9]))
        except ValueError:
            continue
    return out


def disk_rates(before: DiskCounters, after: DiskCounters, seconds: float) -> dict[str, float]:
    """Per-second rates; /proc/diskstats sectors are always 512 bytes."""
    d = [max(0, a - b) for a, b in zip(after, before)]
    return {
        "reads": round(d[0] / seconds, 3),
        "read_bytes": round(d[1] * 512 / seconds, 1),
        "writes": round(d[2] / seconds, 3),
        "write_bytes": round(d[3] * 512 / seconds, 1),
        "io_ms": round(d[4] / seconds, 3),
    }


def parse_task_stat(raw: bytes) -> tuple[str, str]:
    """(comm, state) from /proc/PID/task/TID/stat; comm may itself hold spaces and parentheses."""
    text = raw.decode("utf-8", "replace")
    left = text.find("(")
    right = text.rfind(")")
    if left < 0 or right < left:
        raise ValueError("malformed stat line")
    return text[left + 1 : right], text[right + 2 : right + 3]


def parse_stat_faults(raw: bytes) -> int:
    """minflt + majflt from a /proc/PID/stat line."""
    rest = raw.decode("utf-8", "replace").rsplit(")", 1)[1].split()
    return int(rest[7]) + int(rest[9])


def parse_ctx_switches(text: str) -> tuple[int, int]:
    voluntary = nonvoluntary = 0
    for line in text.splitlines():
        if line.startswith("voluntary_ctxt_switches:"):
            voluntary = int(line.split()[1])
        elif line.startswith("nonvoluntary_ctxt_switches:"):
            nonvoluntary = int(line.split()[1])
    return voluntary, nonvoluntary


def list_tids(pid: int) -> list[int]:
    """A process's thread ids, sorted; none once it has exited."""
    try:
        return sorted(int(x) for x in os.listdir(f"/proc/{pid}/task"))
    except (OSError, ValueError):
        return []


def list_pids() -> list[int]:
    """Every process id on the host (`--all`)."""
    return [int(x) for x in os.listdir("/proc") if x.isdigit()]
