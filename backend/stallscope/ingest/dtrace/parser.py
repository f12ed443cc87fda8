"""DTrace aggregation output (`@[ustack()] = count()`, `sum(...)`, printed by `printa` or at exit).

The shape, as dtrace(1M) prints an aggregation whose key holds a stack:

    dtrace: description 'profile-997 ' matched 1 probe     <- on stderr, often absent from the file
    CPU     ID                    FUNCTION:NAME            <- a probe that fired with no action
      0  64091                        :tick-60s

      java                                                 <- other keys, if any: a short indent
                  libc.so.1`__read+0xa                     <- frames, leaf first, a deep indent
                  libjvm.so`JVM_Read+0x3c
                   12                                      <- the value, alone on its line

Each record becomes one sample: the stack root first, the value as its period (a count, or the sum
`sum(arg)` adds up), the non-stack keys joined as its comm (empty when there are none), no times.
The event is the probe description from the `dtrace: description` line when the file has it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import BinaryIO

from stallscope.ingest.dtrace.frames import frame_name, kinds_of
from stallscope.ingest.model import Frame, FrameKind, ParseError, ParseReport, Sample, Stack
from stallscope.ingest.text_lines import TextLines, note_cut_tail, reject_non_text
from stallscope.ingest.value_ranges import INT64_DIGITS, fits_int64

DEFAULT_EVENT = "dtrace"
KEY_INDENT = 8
"""Key values are printed with a two-space indent, frames with `stackindent` (14 by default)."""
MAX_CACHED_STACKS = 20_000
"""Stacks cached by their text, a few KB each: the cap keeps memory bounded."""
MAX_KEYS = 8
"""More key-like lines than this before the first stack means the file is something else."""
VALUE_LINE = re.compile(rb"\s*-?\d+\s*\Z")
_DESCRIPTION = re.compile(rb"dtrace: description '(.*?)\s*' matched")
_PROBE_LINE = re.compile(rb"\s*\d+\s+\d+\s+\S*:\S*\s*\Z")


@dataclass(slots=True)
class _Record:
    line: int = 0
    keys: list[str] = field(default_factory=list)
    frames: list[bytes] = field(default_factory=list)


def parse_dtrace(stream: BinaryIO, report: ParseReport) -> Iterator[Sample]:
    """Yield one sample per aggregation record of `stream`."""
    return _Parser(report).run(stream)


def is_header(raw: bytes) -> bool:
    """The lines dtrace prints before the aggregation: description, probe table, `^C`."""
    return (
        raw.startswith((b"dtrace:", b"^C"))
        or (raw.startswith(b"CPU") and b"ID" in raw)
        or _PROBE_LINE.match(raw) is not None
    )


def is_frame_line(raw: bytes) -> bool:
    """An indented `module`function` line or a bare hex address."""
    text = raw.strip()
    if b"`" in text:
        return raw[:1] in b" \t"
    hex_digits = text[2:] if text.startswith(b"0x") else text
    return bool(hex_digits) and all(c in b"0123456789abcdefABCDEF" for c in hex_digits)


class _Parser:
    def __init__(self, report: ParseReport) -> None:
        self.report = report
        self.event = DEFAULT_EVENT
        self._frames: dict[tuple[str, FrameKind], Frame] = {}
        self._stacks: dict[bytes, Stack] = {}
        self._in_header = True
        self._header_lines = 0

    def run(self, stream: BinaryIO) -> Iterator[Sample]:
        lines = TextLines(stream, comments=True)
        record = _Record()
        for first, batch in lines.batches():
            if first == 1:
                reject_non_text(lines.head, "DTrace")
            for offset, raw in enumerate(batch):
                number = first + offset
                if not raw.strip():
                    if self._in_header and self._header_lines:
                        self._in_header = False  # the blank lines after dtrace's own lines
                    continue
                if self._in_header and is_header(raw):
                    self._header(raw)
                    continue
                self._in_header = False
                if VALUE_LINE.match(raw):
                    sample = self._close(record, number, raw.strip())
                    record = _Record()
                    if sample is not None:
                        yield sample
                    continue
                if not record.line:
                    record.line = number
                if not record.frames and raw[:KEY_INDENT].strip():
                    record.keys.append(raw.decode("utf-8", "replace").strip())
                    if len(record.keys) > MAX_KEYS and self.report.samples == 0:
                        raise ParseError(record.line, _not_dtrace(record.keys[0].encode()))
                else:
                    record.frames.append(raw)
        note_cut_tail(lines, self.report)
        if record.line:
            self._unfinished(record)

    def _header(self, raw: bytes) -> None:
        self._header_lines += 1
        described = _DESCRIPTION.match(raw)
        if described is not None and described.group(1):
            self.event = described.group(1).decode("utf-8", "replace")

    def _close(self, record: _Record, number: int, value_text: bytes) -> Sample | None:
        if not record.frames and not record.keys:
            if self.report.samples == 0:
                raise ParseError(number, "not DTrace aggregation output: a value with no stack before it")
            self.report.dropped_lines += 1
            self.report.warn(number, "a value with no stack or key before it, dropped")
            return None
        if self.report.samples == 0 and not any(map(is_frame_line, record.frames)):
            raise ParseError(record.line, _not_dtrace((record.keys or [""])[0].encode()))
        value = int(value_text) if len(value_text.lstrip(b"-")) <= INT64_DIGITS else None
        if value is None or not fits_int64(value):
            self.report.dropped_lines += len(record.keys) + len(record.frames) + 1
            self.report.warn(number, "a value too large for a sample's weight; dropped its stack")
            return None
        self.report.samples += 1
        comm = " ".join(record.keys)
        return Sample(
            record.line, comm, None, None, None, None, self.event, value, self._stack(record.frames)
        )

    def _stack(self, raw_frames: list[bytes]) -> Stack:
        key = b"\n".join(raw_frames)
        stack = self._stacks.get(key)
        if stack is None:
            names = [frame_name(raw.decode("utf-8", "replace")) for raw in reversed(raw_frames)]
            stack = tuple(map(self._frame, names, kinds_of(names)))
            if len(self._stacks) >= MAX_CACHED_STACKS:
                self._stacks.clear()
            self._stacks[key] = stack
        return stack

    def _frame(self, name: str, kind: FrameKind) -> Frame:
        found = self._frames.get((name, kind))
        if found is None:
            found = self._frames[(name, kind)] = Frame(name, kind)
        return found

    def _unfinished(self, record: _Record) -> None:
        if self.report.samples == 0 and not any(map(is_frame_line, record.frames)):
            first = record.frames[0] if record.frames else (record.keys or [""])[0].encode()
            raise ParseError(record.line, _not_dtrace(first))
        count = len(record.keys) + len(record.frames)
        self.report.truncated = True
        self.report.dropped_lines += count
        self.report.warn(record.line, f"the file ends before this stack's value; dropped its {count} line(s)")


def _not_dtrace(raw: bytes) -> str:
    text = raw.decode("utf-8", "replace").strip()[:120]
    return f"not DTrace aggregation output: expected indented `module`function` stack lines, found {text!r}"
