"""Map a capture's own clock onto UTC wall-clock time.

perf and ftrace print seconds since boot (CLOCK_MONOTONIC, or perf's own clock a millisecond or
so ahead of it); metrics and logs print wall-clock time; perf trace prints milliseconds since it
started. A capture records how its times were mapped so the UI can say how far to trust an
alignment, and a person can shift it when they know better.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from statistics import median
from typing import Any

from stallscope.ingest.model import CaptureClock
from stallscope.ingest.perf_script.tod import tod_offset_ns

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
EPOCH_NS_THRESHOLD = 10**18
"""Times above this (2001-09-09 as epoch ns, 31 years as uptime) are already epoch times: perf
recorded with `-k CLOCK_REALTIME` prints them in its time column."""


@dataclass(frozen=True, slots=True)
class ClockMapping:
    mode: str
    """unaligned | anchor | perf-tod | realtime | user-offset | none"""
    offset_ns: int
    """Added to capture-clock times that are not already epoch times."""
    shift_ns: int
    """A person's correction, added to every time (epoch ones included)."""
    note: str

    def to_timestamp(self) -> Callable[[int | None], datetime]:
        offset, shift = self.offset_ns, self.shift_ns

        def convert(ns: int | None) -> datetime:
            value = ns or 0
            if value < EPOCH_NS_THRESHOLD:
                value += offset
            return EPOCH + timedelta(microseconds=(value + shift) // 1000)

        return convert

    def as_json(self, info: dict[str, Any]) -> dict[str, Any]:
        stored = dict(info)
        stored.update(mode=self.mode, offset_ns=self.offset_ns, shift_ns=self.shift_ns, note=self.note)
        return stored


def anchor_offset_ns(anchors: list[dict[str, Any]]) -> int | None:
    """realtime minus monotonic, from the collector's paired readings; the median resists one bad pair."""
    offsets = [
        int(a["realtime_ns"]) - int(a["monotonic_ns"])
        for a in anchors
        if isinstance(a, dict) and "realtime_ns" in a and "monotonic_ns" in a
    ]
    return int(median(offsets)) if offsets else None


def clock_mapping(importer_clock: CaptureClock, info: dict[str, Any], head: bytes = b"") -> ClockMapping:
    """Decide the mapping from what the format prints and what the uploader told us (`info`).

    In order of trust: the uploader's own offset, the collector's clock anchors, then perf's
    wall-clock column when the file has one (`head` is the start of the decompressed file).
    """
    shift = int(info.get("shift_ns", 0))
    user_offset = info.get("offset_ns_given")
    if importer_clock is CaptureClock.REALTIME:
        return ClockMapping("realtime", 0, shift, "wall-clock times in the file")
    if importer_clock is CaptureClock.NONE:
        return ClockMapping("none", 0, shift, "the file has no times")
    if user_offset is not None:
        return ClockMapping("user-offset", int(user_offset), shift, "offset given at upload")
    anchored = anchor_offset_ns(list(info.get("anchors") or []))
    if importer_clock is CaptureClock.MONOTONIC and anchored is not None:
        perf_clock = info.get("perf_clock", "monotonic")
        note = "collector clock anchor (CLOCK_MONOTONIC ↔ CLOCK_REALTIME)"
        if perf_clock == "default":
            note += "; perf's default clock runs up to ~1.5 ms ahead of CLOCK_MONOTONIC"
        return ClockMapping("anchor", anchored, shift, note)
    if importer_clock is CaptureClock.MONOTONIC:
        tod = tod_offset_ns(head, int(info.get("utc_offset_s", 0)))
        if tod is not None:
            zone = "UTC" if not info.get("utc_offset_s") else f"UTC{int(info['utc_offset_s']) / 3600:+g} h"
            return ClockMapping("perf-tod", tod, shift, f"perf's wall-clock column (-F +tod), read as {zone}")
    if importer_clock is CaptureClock.RELATIVE:
        return ClockMapping("unaligned", 0, shift, "times relative to the start of the trace; no anchor")
    note = "capture clock (seconds since boot) shown from 1970-01-01; no wall-clock anchor"
    return ClockMapping("unaligned", 0, shift, note)
