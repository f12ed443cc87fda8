"""Map a capture's own clock onto UTC wall-clock time.

perf and ftrace print seconds since boot (CLOCK_MONOTONIC, or perf's own clock a millisecond or
so ahead of it); metrics and logs print wall-clock time; perf trace prints milliseconds since it
started. A capture records how its times were mapped so the UI can say how far to trust an
alignment, and a person can shift it when they know better.

What aligns a capture, most trusted first: an offset its uploader gave; clock anchors that came with
it; perf's wall-clock column in the file itself; a wall-clock start a person gave (the first record
is placed there); the clock anchors of its host, uploaded as a capture of their own
(`captures/host_clock.py`). Without any of them it stays `unaligned`: on the capture clock, which the
UI shows relative to the capture rather than as 1970.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from statistics import median_low
from typing import Any, Literal, get_args

import numpy as np

from stallscope.ingest.model import CaptureClock
from stallscope.ingest.perf_script.tod import tod_offset_ns

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
EPOCH_NS_THRESHOLD = 10**18
"""Times above this (2001-09-09 as epoch ns, 31 years as uptime) are already epoch times: perf
recorded with `-k CLOCK_REALTIME` prints them in its time column."""


ClockMode = Literal[
    "unaligned", "anchor", "host-anchor", "perf-tod", "realtime", "user-offset", "user-start", "none"
]
"""How a capture's times were put on UTC (`_mapping` says when each applies); the API and the front
end's generated types name the same modes."""
CLOCK_MODES: frozenset[ClockMode] = frozenset(get_args(ClockMode))
WALL_CLOCK_MODES: frozenset[ClockMode] = frozenset(
    {"realtime", "anchor", "host-anchor", "perf-tod", "user-offset", "user-start"}
)
"""Modes whose times are wall-clock times, comparable across captures and hosts."""


def stored_mode(info: dict[str, Any]) -> ClockMode | None:
    """The mode a parse stored in a capture's clock info; None before one (the info is then what the
    uploader sent, which may hold anything)."""
    mode = info.get("mode")
    return mode if mode in CLOCK_MODES else None


def is_wall_clock(mode: str | None) -> bool:
    """Whether a capture's clock mode puts its times on the wall clock (`unaligned`, `none` and no
    mode yet do not): what every view and command asks before it writes a time as UTC."""
    return mode in WALL_CLOCK_MODES


def on_capture_clock(ns: int) -> bool:
    """Whether a time a file holds is on the capture's own clock (seconds since boot, time since the
    trace began) rather than already an epoch time (perf recorded with `-k CLOCK_REALTIME`)."""
    return ns < EPOCH_NS_THRESHOLD


START_GIVEN_KEY = "start_given_ns"
"""Clock info key: the wall-clock start (epoch ns) a person gave for a capture with nothing to align it."""


@dataclass(slots=True)
class StartPin:
    """Puts the first capture-clock time the parse converts at `start_ns`.

    The first record is the capture's start as a person knows it ("perf ran from 14:02:10"); records
    a parser emits slightly out of order land a little before it, which is within what a person's
    start time is good for anyway.
    """

    start_ns: int
    offset_ns: int | None = None


class EpochMicros:
    """Capture-clock ns (None as 0) to whole microseconds since the epoch, UTC, in integers only.

    Writers format or pack each sample's time from these; building a `datetime` a sample cost a
    tenth of the load of a capture. A start pin is applied at the first capture-clock time met,
    whichever of the three conversions meets it.
    """

    __slots__ = ("_offset_ns", "_pin", "_shift_ns")

    def __init__(self, offset_ns: int, shift_ns: int, pin: StartPin | None) -> None:
        self._offset_ns = offset_ns
        self._shift_ns = shift_ns
        self._pin = pin

    def __call__(self, ns: int | None) -> int:
        value = ns or 0
        if value < EPOCH_NS_THRESHOLD:
            if self._pin is not None:
                self._pin_at(value)
            value += self._offset_ns
        return (value + self._shift_ns) // 1000

    def many(self, ns: np.ndarray) -> np.ndarray:
        """`self(t)` of every int64 `t` in `ns` (a None time as 0), in order."""
        capture_clock = ns < EPOCH_NS_THRESHOLD
        if self._pin is not None and capture_clock.any():
            self._pin_at(int(ns[int(np.argmax(capture_clock))]))
        shifted = np.where(capture_clock, ns + self._offset_ns, ns) + self._shift_ns
        return shifted // 1000

    def timestamp(self, ns: int | None) -> datetime:
        return EPOCH + timedelta(microseconds=self(ns))

    def _pin_at(self, first_ns: int) -> None:
        assert self._pin is not None
        self._offset_ns = self._pin.offset_ns = self._pin.start_ns - first_ns
        self._pin = None


@dataclass(frozen=True, slots=True)
class HostAnchors:
    """The clock anchors of the capture's host, from the newest anchor capture of its incident."""

    offset_ns: int
    """Realtime minus capture clock: the median over the anchor file's pairs."""
    perf_clock: bool
    capture_id: int
    filename: str


@dataclass(frozen=True, slots=True)
class ClockMapping:
    mode: ClockMode
    offset_ns: int
    """Added to capture-clock times that are not already epoch times."""
    shift_ns: int
    """A person's correction, added to every time (epoch ones included)."""
    note: str
    capture_clock: str = ""
    """The clock the importer reads (`CaptureClock` value): says which captures anchors can align."""
    pin: StartPin | None = None

    def to_epoch_us(self) -> EpochMicros:
        return EpochMicros(self.offset_ns, self.shift_ns, self.pin)

    def to_timestamp(self) -> Callable[[int | None], datetime]:
        return self.to_epoch_us().timestamp

    def as_json(self, info: dict[str, Any]) -> dict[str, Any]:
        stored = dict(info)
        offset = self.offset_ns
        if self.pin is not None and self.pin.offset_ns is not None:
            offset = self.pin.offset_ns
        stored.update(
            mode=self.mode,
            offset_ns=offset,
            shift_ns=self.shift_ns,
            note=self.note,
            capture_clock=self.capture_clock,
        )
        return stored


def anchor_offset_ns(anchors: list[dict[str, Any]]) -> int | None:
    """realtime minus monotonic, from the collector's paired readings; the median resists one bad pair."""
    offsets = [
        int(a["realtime_ns"]) - int(a["monotonic_ns"])
        for a in anchors
        if isinstance(a, dict) and "realtime_ns" in a and "monotonic_ns" in a
    ]
    return median_low(offsets) if offsets else None


def clock_mapping(
    importer_clock: CaptureClock, info: dict[str, Any], head: bytes = b"", host: HostAnchors | None = None
) -> ClockMapping:
    """Decide the mapping from what the format prints and what the uploader told us (`info`).

    In the order of trust the module docstring gives (`head` is the start of the decompressed file,
    `host` the anchors of the capture's host, if it has some).
    """
    mapping = _mapping(importer_clock, info, head, host)
    return replace(mapping, capture_clock=importer_clock.value)


def _mapping(
    importer_clock: CaptureClock, info: dict[str, Any], head: bytes, host: HostAnchors | None
) -> ClockMapping:
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
    start_given = info.get(START_GIVEN_KEY)
    if start_given is not None and importer_clock in (CaptureClock.MONOTONIC, CaptureClock.RELATIVE):
        start = EPOCH + timedelta(microseconds=int(start_given) // 1000)
        note = (
            f"wall-clock start given by a person: the first record is placed at {start:%Y-%m-%d %H:%M:%S} UTC"
        )
        return ClockMapping("user-start", 0, shift, note, pin=StartPin(int(start_given)))
    if importer_clock is CaptureClock.MONOTONIC and host is not None:
        note = f"clock anchors of this host, from capture {host.capture_id} ({host.filename})"
        if host.perf_clock:
            note += "; taken on perf's default clock, which runs up to ~1.5 ms ahead of CLOCK_MONOTONIC"
        return ClockMapping("host-anchor", host.offset_ns, shift, note)
    if importer_clock is CaptureClock.RELATIVE:
        return ClockMapping("unaligned", 0, shift, "times relative to the start of the trace; no anchor")
    note = "capture clock (seconds since boot) shown from 1970-01-01; no wall-clock anchor"
    return ClockMapping("unaligned", 0, shift, note)
