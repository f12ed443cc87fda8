"""What kernel.perf_event_paranoid (or root) allows a user to record."""

from __future__ import annotations

import os
from typing import Sequence

from stallscope_collect.files import read_text
from stallscope_collect.perf.modes import MODE_LABELS


def read_paranoid() -> int | None:
    try:
        return int(read_text("/proc/sys/kernel/perf_event_paranoid").strip())
    except (OSError, ValueError):
        return None


def perf_privileged() -> bool:
    """Root, or CAP_PERFMON / CAP_SYS_ADMIN in the effective set: perf_event_paranoid does not apply."""
    if os.geteuid() == 0:
        return True
    try:
        for line in read_text("/proc/self/status").splitlines():
            if line.startswith("CapEff:"):
                caps = int(line.split()[1], 16)
                return bool(caps & (1 << 38) or caps & (1 << 21))
    except (OSError, ValueError):
        pass
    return False


def permission_problems(
    modes: Sequence[str], system_wide: bool, paranoid: int | None, privileged: bool
) -> tuple[dict[str, str], list[str]]:
    """Which perf modes kernel.perf_event_paranoid forbids an unprivileged user, and warnings."""
    refused: dict[str, str] = {}
    warnings: list[str] = []
    if privileged or paranoid is None:
        return refused, warnings
    for mode in modes:
        tracepoints = mode in ("offcpu", "syscalls")
        # The offcpu mode traces system-wide (filtered to the target's threads) whenever it can.
        need = -1 if tracepoints else (0 if system_wide else 2)
        if paranoid > need:
            extra = " and read access to /sys/kernel/tracing" if tracepoints else ""
            refused[mode] = (
                f"{MODE_LABELS[mode]} needs root (or CAP_PERFMON{extra}) or "
                f"kernel.perf_event_paranoid <= {need}; it is {paranoid} here. Run as root, or allow it with "
                f"`sudo sysctl -w kernel.perf_event_paranoid={need}`"
            )
    if paranoid >= 2 and any(m in modes and m not in refused for m in ("cpu", "faults")):
        warnings.append(
            f"kernel.perf_event_paranoid is {paranoid}: stacks of a non-root user have no kernel frames "
            "(set it to 1 or run as root to see them)"
        )
    return refused, warnings
