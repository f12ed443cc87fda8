"""Page-fault timings from a systemtap script, with optional user stacks, to FAULT events.

One line per fault, as the script prints it, then optionally the fault's `print_ubacktrace()` lines:

    1732173712345678:1732173712345712:4242:4240:34:1024
     0x7f3a5e8b2f3d : _dl_runtime_resolve_xsave+0x3d/0x60 [/lib64/ld-2.17.so]
     0x400a1c : main+0x2c/0x80 [/usr/bin/app]

The fields are `start_us:end_us:tid:pid:duration_us:retval`, the times from `gettimeofday_us()`
(microseconds since the epoch, hence the REALTIME clock) and `retval` the handler's `vm_fault_t`
(see `vm_fault`). The duration is the printed one; the stack is turned root first.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import BinaryIO

from stallscope.ingest.model import EventKind, Frame, FrameKind, ParseError, ParseReport, Stack, TimedEvent
from stallscope.ingest.stap.frames import parse_frame_line
from stallscope.ingest.stap.vm_fault import fault_attrs, flag_names
from stallscope.ingest.text_lines import TextLines, drop_line, note_cut_tail, reject_non_text

EVENT_NAME = "page_fault"
EPOCH_US_2001 = 10**15
"""Microsecond times below this are not epoch times (they would be before September 2001)."""
MAX_HEADER_LINES = 20
MAX_CACHED = 200_000
MAX_CACHED_STACKS = 20_000
"""Stacks cached by their text, a few KB each: the cap keeps memory bounded."""
FAULT_LINE = re.compile(
    rb"\s*(\d{1,17}):(\d{1,17}):(\d{1,9}):(\d{1,9}):(\d{1,15}):(0x[0-9a-fA-F]{1,16}|0|[1-9]\d{0,18})\s*\Z"
)
"""start_us:end_us:tid:pid:duration_us:retval, each number with as many digits as its column holds
(`value_ranges`): times up to the year 5138, durations in 64-bit nanoseconds, 32-bit ids."""


@dataclass(slots=True)
class _Fault:
    line: int
    start_us: int
    end_us: int
    tid: int
    pid: int
    duration_us: int
    retval: int
    frames: list[bytes] = field(default_factory=list)


def parse_stap_faults(stream: BinaryIO, report: ParseReport) -> Iterator[TimedEvent]:
    """Yield one FAULT event per fault line of `stream`."""
    return _Parser(report).run(stream)


def read_fault_line(raw: bytes, number: int) -> _Fault | None:
    match = FAULT_LINE.match(raw)
    if match is None:
        return None
    start, end, tid, pid, duration, retval = match.groups()
    return _Fault(number, int(start), int(end), int(tid), int(pid), int(duration), int(retval, 0))


class _Parser:
    def __init__(self, report: ParseReport) -> None:
        self.report = report
        self._frames: dict[bytes, Frame | None] = {}
        self._stacks: dict[bytes, Stack] = {}
        self._interned: dict[tuple[str, FrameKind], Frame] = {}
        self._faults = 0
        self._header_lines = 0
        self._mismatched = 0

    def run(self, stream: BinaryIO) -> Iterator[TimedEvent]:
        lines = TextLines(stream, comments=True)
        fault: _Fault | None = None
        for first, batch in lines.batches():
            if first == 1:
                reject_non_text(lines.head, "systemtap")
            for offset, raw in enumerate(batch):
                if raw[:1] == b" " and fault is not None and self._frame(raw) is not None:
                    fault.frames.append(raw)
                    continue
                parsed = read_fault_line(raw, first + offset)
                if parsed is not None:
                    if fault is not None:
                        yield self._event(fault)
                    fault = parsed
                elif raw.strip():
                    self._other_line(lines, raw, first + offset, before_first=fault is None)
        note_cut_tail(lines, self.report)
        if fault is not None:
            yield self._event(fault)
        self._finish()

    def _event(self, fault: _Fault) -> TimedEvent:
        if fault.end_us - fault.start_us != fault.duration_us:
            self._mismatched += 1
            if self._mismatched == 1:
                self.report.warn(fault.line, "duration_us differs from end_us - start_us; kept duration_us")
        if self._faults == 0 and fault.start_us < EPOCH_US_2001:
            self.report.warn(
                fault.line,
                "times do not look like gettimeofday_us() (epoch microseconds); "
                "they are stored as wall-clock times and will be misplaced",
            )
        self._faults += 1
        return TimedEvent(
            fault.line,
            EventKind.FAULT,
            EVENT_NAME,
            fault.start_us * 1000,
            fault.duration_us * 1000,
            pid=fault.pid,
            tid=fault.tid,
            stack=self._stack(fault.frames),
            result=flag_names(fault.retval),
            attrs=fault_attrs(fault.retval),
        )

    def _frame(self, raw: bytes) -> Frame | None:
        if raw in self._frames:
            return self._frames[raw]
        named = parse_frame_line(raw.decode("utf-8", "replace"))
        frame = None
        if named is not None:
            frame = self._interned.get(named)
            if frame is None:
                frame = self._interned[named] = Frame(*named)
        if len(self._frames) >= MAX_CACHED:
            self._frames.clear()
        self._frames[raw] = frame
        return frame

    def _stack(self, raw_frames: list[bytes]) -> Stack:
        if not raw_frames:
            return ()
        key = b"\n".join(raw_frames)
        stack = self._stacks.get(key)
        if stack is None:
            frames = [self._frame(raw) for raw in reversed(raw_frames)]
            stack = tuple(frame for frame in frames if frame is not None)
            if len(self._stacks) >= MAX_CACHED_STACKS:
                self._stacks.clear()
            self._stacks[key] = stack
        return stack

    def _other_line(self, lines: TextLines, raw: bytes, number: int, before_first: bool) -> None:
        text = raw.decode("utf-8", "replace").strip()[:120]
        if before_first:
            self._header_lines += 1
            if self._header_lines > MAX_HEADER_LINES:
                raise ParseError(number, _not_stap(text))
        drop_line(lines, self.report, number, f"neither a fault line nor a backtrace line, dropped: {text!r}")

    def _finish(self) -> None:
        if self._faults == 0 and self._header_lines:
            raise ParseError(1, _not_stap("no fault line in the file"))
        if self._mismatched > 1:
            self.report.warn(0, f"{self._mismatched} faults had duration_us != end_us - start_us")


def _not_stap(found: str) -> str:
    return (
        "not systemtap fault output: expected `start_us:end_us:tid:pid:duration_us:retval` lines, "
        f"found {found!r}"
    )
