"""Whether the snapshot changed since the last one sent: its sections hashed without the values
that change by themselves."""

from __future__ import annotations

import copy
import hashlib
import json
from typing import Any

VOLATILE = {
    "system": ("loadavg", "uptime"),
    # The kernel lowers this one by itself whenever a perf interrupt takes too long: a change
    # perf's own sampling can cause, not one somebody made.
    "kernel_sysctl": ("perf_event_max_sample_rate",),
}
"""Values in a section that move between two snapshots of an unchanged system."""

BPF_RUN_STATS = ("run_time_ns", "run_cnt", "recursion_misses")
"""Per-program counters bpftool prints when kernel.bpf_stats_enabled is on."""


def stable_sections(snapshot: dict[str, Any]) -> dict[str, Any]:
    """The snapshot's sections without the volatile values (`taken_at_ns` is outside them)."""
    sections = copy.deepcopy(snapshot.get("sections") or {})
    for name, keys in VOLATILE.items():
        section = sections.get(name)
        if isinstance(section, dict):
            for key in keys:
                section.pop(key, None)
                if isinstance(section.get("errors"), dict):
                    section["errors"].pop(key, None)
    programs = (sections.get("bpf") or {}).get("programs")
    if isinstance(programs, list):
        for program in programs:
            if isinstance(program, dict):
                for key in BPF_RUN_STATS:
                    program.pop(key, None)
    return sections


def section_hashes(snapshot: dict[str, Any]) -> dict[str, str]:
    """A hash of each section's JSON (keys sorted), volatile values left out."""
    return {
        name: hashlib.sha256(json.dumps(value, sort_keys=True).encode()).hexdigest()
        for name, value in stable_sections(snapshot).items()
    }


class SnapshotTracker:
    """The hashes of the last snapshot sent, to send the next one only when something changed."""

    def __init__(self) -> None:
        self.last_sent: dict[str, str] | None = None

    def changed_sections(self, hashes: dict[str, str]) -> list[str] | None:
        """Sections that differ from the last snapshot sent; None when none was sent yet."""
        if self.last_sent is None:
            return None
        names = sorted(set(hashes) | set(self.last_sent))
        return [n for n in names if hashes.get(n) != self.last_sent.get(n)]

    def sent(self, hashes: dict[str, str]) -> None:
        self.last_sent = dict(hashes)
