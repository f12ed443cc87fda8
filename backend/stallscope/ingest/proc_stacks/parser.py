"""Periodic /proc/PID/task/TID/stack dumps: one sample per dump, the thread's kernel stack root first.

The poor man's off-CPU profile: a shell loop that, every so often, prints a header for each thread
(see `header`) and then `cat`s its stack file. Each dump becomes one `Sample` of weight one, so a
thread that spent twice as long blocked somewhere shows twice the samples there. Its event says the
thread's scheduler state when the header does (`proc-stack:D`, see `events`). A thread that was
running when read has an empty stack file (the kernel does not unwind a task on another CPU); its
dump is kept as a sample with an empty stack.

The file is split at header lines, found a chunk at a time by one regular expression: a dump's
frame lines are looked up whole in a cache of the stacks seen, so the same stack dumped ten thousand
times is read once.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import BinaryIO

from stallscope.ingest.model import ParseError, ParseReport, Sample, Stack
from stallscope.ingest.proc_stacks.events import event_name
from stallscope.ingest.proc_stacks.frames import FrameNames, frame_symbol
from stallscope.ingest.proc_stacks.header import DumpHeader, HeaderReader
from stallscope.ingest.proc_stacks.times import BadTime
from stallscope.ingest.text_lines import TextLines, reject_non_text

HEADER = re.compile(rb"^(?:#|==> )[^\n]*", re.MULTILINE)
MAX_CACHED_STACKS = 20_000
"""Dump texts remembered with their stack (a few hundred bytes each): the cap keeps memory bounded."""
MAX_DUMP_BYTES = 1 << 20
"""The kernel prints at most 64 frames (about 4 KiB); past this a dump is not one, and the rest of it
is dropped rather than held."""
FORMAT = "/proc/PID/task/TID/stack dump"
WHOLE_FRAME_LINE = re.compile(
    rb"\s*\[<[0-9a-fA-F]+>\] (?:\S+\+0x[0-9a-fA-F]+/0x[0-9a-fA-F]+(?: \[[^\[\]]*\])?|0x[0-9a-fA-F]+)\s*"
)
"""A frame line as the kernel ends it: with a file saved without its final newline, the last line is
whole when it ends like this, and may have been cut anywhere else."""
TOOL_ERROR = re.compile(rb"(?:cat|tail|head|grep): \S.*")
"""What the loop's reader printed instead of a stack (with `2>&1`): `cat: /proc/9/task/9/stack: No such
file or directory` for a thread that exited, `Operation not permitted` when not run as root."""


def parse_proc_stacks(stream: BinaryIO, report: ParseReport) -> Iterator[Sample]:
    """Yield one sample per stack dump of `stream`."""
    return _Parser(report).run(stream)


class _Parser:
    def __init__(self, report: ParseReport) -> None:
        self.report = report
        self._headers = HeaderReader(report)
        self._names = FrameNames()
        self._stacks: dict[bytes, Stack] = {}
        self._dump: DumpHeader | None = None
        """The header whose frame lines are being gathered; None before the first and after a comment."""
        self._body: list[bytes] = []
        self._body_bytes = 0
        self._body_line = 1
        """The line the gathered text starts on: its header's, or 1 for what precedes the first."""
        self._stamp_ns: int | None = None
        """The last time stamp seen between dumps: the time of later dumps whose header has none."""
        self._seen_header = False
        self._orphans = 0
        self._unreadable = 0
        self._first_error: tuple[int, str] | None = None

    def run(self, stream: BinaryIO) -> Iterator[Sample]:
        lines = TextLines(stream)
        for first, block in lines.blocks():
            if first == 1:
                reject_non_text(lines.head, FORMAT)
            if b"\r" in block:
                block = block.replace(b"\r", b"")
            yield from self._block(first, block)
            if not self._seen_header:
                raise ParseError(1, _not_dumps(block))
        tail = lines.partial.replace(b"\r", b"")
        if lines.cut_short:
            self.report.truncated = True
            self.report.warn(lines.partial_line, "the compressed stream ends early; kept the complete dumps")
        if tail.strip():
            if not lines.cut_short and WHOLE_FRAME_LINE.fullmatch(tail):
                self._gather(tail)  # a last frame line that lost only its newline
            else:
                self._cut_tail(tail, lines.partial_line)
        sample = self._close()
        if sample is not None:
            yield sample
        if not self._seen_header:
            raise ParseError(1, _not_dumps(tail))
        self._report_unreadable()
        if self._orphans:
            self.report.warn(0, f"{self._orphans:,} frame line(s) with no header above them, dropped")

    def _block(self, first: int, block: bytes) -> Iterator[Sample]:
        line, pos = first, 0
        for match in HEADER.finditer(block):
            start = match.start()
            line += block.count(b"\n", pos, start)
            self._gather(block[pos:start])
            sample = self._close()
            if sample is not None:
                yield sample
            self._open(match.group(), line)
            self._body_line = line
            pos = match.end()
        self._gather(block[pos:])

    def _gather(self, piece: bytes) -> None:
        if self._body_bytes + len(piece) > MAX_DUMP_BYTES:
            if self._body_bytes <= MAX_DUMP_BYTES:
                self.report.warn(self._dump.line if self._dump else 0, "a dump longer than 1 MiB; cut there")
                self.report.truncated = True
            self.report.dropped_lines += piece.count(b"\n")
            self._body_bytes = MAX_DUMP_BYTES + 1
            return
        self._body.append(piece)
        self._body_bytes += len(piece)

    def _open(self, raw: bytes, line: int) -> None:
        if raw.startswith(b"==> "):
            self._seen_header = True
            self._dump = self._headers.tail(raw, line, self._stamp_ns)
            return
        try:
            header = self._headers.fields(raw, line, self._stamp_ns)
        except BadTime as exc:
            self.report.warn(line, f"the dump's time cannot be read ({exc}); dropped the dump")
            self.report.dropped_lines += 1
            self._seen_header = True
            self._dump = None
            return
        if header.names_thread:
            self._seen_header = True
            self._dump = header
        else:
            if header.time_ns is not None:
                self._stamp_ns = header.time_ns
            self._dump = None

    def _close(self) -> Sample | None:
        """The dump gathered so far as a sample (None before the first header), and start over."""
        # Pieces from consecutive chunks: each chunk ends where a line does, so `\n` rejoins them.
        body = self._body[0] if len(self._body) == 1 else b"\n".join(self._body)
        self._body = []
        whole = self._body_bytes <= MAX_DUMP_BYTES
        self._body_bytes = 0
        dump, self._dump = self._dump, None
        if not whole:
            self.report.dropped_lines += body.count(b"\n") + (dump is not None)
            return None
        if dump is None:
            self._loose(body, self._body_line)
            return None
        stack = self._stacks.get(body)
        if stack is None:
            stack = self._stack(body, dump.line)
            if stack is None:
                self._unreadable += 1
                self.report.dropped_lines += 1
                return None
        self.report.samples += 1
        return Sample(
            dump.line, dump.comm, dump.pid, dump.tid, None, dump.time_ns, event_name(dump.state), None, stack
        )

    def _stack(self, body: bytes, line: int) -> Stack | None:
        """Read a dump's lines: frames into a stack, stamps for later dumps, anything else dropped.

        None when the loop's reader said it could not read the file and printed no frame: the thread
        had exited (or the loop lacked the right), which is not a thread running with an empty stack.
        """
        symbols: list[str] = []
        pure = True
        failed = False
        for offset, raw in enumerate(body.split(b"\n")):
            if not raw.strip():
                continue
            symbol = frame_symbol(raw)
            if symbol is not None:
                symbols.append(symbol)
                continue
            pure = False
            if TOOL_ERROR.match(raw):
                failed = True
                self._tool_error(raw, line + offset)
            else:
                self._other(raw, line + offset)
        if failed and not symbols:
            return None
        stack = self._names.stack(symbols)
        if pure:
            if len(self._stacks) >= MAX_CACHED_STACKS:
                self._stacks.clear()
            self._stacks[body] = stack
        return stack

    def _loose(self, body: bytes, line: int) -> None:
        """Lines with no dump header above them: stamps are kept, frames and the rest dropped."""
        for offset, raw in enumerate(body.split(b"\n")):
            if not raw.strip():
                continue
            if frame_symbol(raw) is not None:
                self._orphans += 1
                self.report.dropped_lines += 1
            elif TOOL_ERROR.match(raw):
                self._tool_error(raw, line + offset)
            else:
                self._other(raw, line + offset)

    def _other(self, raw: bytes, line: int) -> None:
        try:
            stamp = self._headers.stamp(raw, line)
        except BadTime as exc:
            self.report.warn(line, f"a time stamp that cannot be read ({exc}); later dumps keep the last one")
            self.report.dropped_lines += 1
            return
        if stamp is not None:
            self._stamp_ns = stamp
            return
        self.report.dropped_lines += 1
        text = raw.decode("utf-8", "replace").strip()[:120]
        self.report.warn(line, f"neither a stack frame (`[<0>] func+0x1a/0x60`) nor a header: {text!r}")

    def _tool_error(self, raw: bytes, line: int) -> None:
        self.report.dropped_lines += 1
        if self._first_error is None:
            text = raw.decode("utf-8", "replace").strip()[:200]
            self._first_error = (line, text)
            self.report.warn(line, f"the loop could not read a stack file: {text!r}")

    def _report_unreadable(self) -> None:
        """Say why when no stack file could be read at all; count the dumps that could not be."""
        if self._first_error is None:
            return
        line, text = self._first_error
        if self.report.samples == 0:
            raise ParseError(
                line,
                f"no stack file could be read: the loop printed {text!r} (reading another task's "
                "/proc/PID/task/TID/stack needs root)",
            )
        if self._unreadable:
            self.report.warn(
                0,
                f"{self._unreadable:,} dump(s) whose stack file could not be read (exited threads?), dropped",
            )

    def _cut_tail(self, tail: bytes, line: int) -> None:
        """A file that ends mid-line was cut while a dump was written: its stack may lack its root."""
        self.report.truncated = True
        self.report.dropped_lines += 1
        if HEADER.match(tail) is not None or self._dump is None:
            self.report.warn(line, "the file ends in the middle of this line; dropped it")
            return
        dump = self._dump
        self._dump, self._body, self._body_bytes = None, [], 0
        self.report.dropped_lines += line - dump.line
        self.report.warn(dump.line, "the file ends inside this dump; dropped it (its stack may be cut)")


def _not_dumps(block: bytes) -> str:
    first = next((raw for raw in block.split(b"\n", 50) if raw.strip()), b"")
    text = first.decode("utf-8", "replace").strip()[:120]
    return (
        f"not {FORMAT}s: expected a `# ts_us=… tid=… comm=…` or `==> /proc/PID/task/TID/stack <==` "
        f"header before the `[<0>] func+0x1a/0x60` frame lines, found {text!r}"
    )
