"""Stream `perf script` text into canonical samples.

The input is read in large chunks and cut at blank lines, which end every sample perf writes; each
record then costs one header match and, usually, one cache hit for its whole stack (see `stacks`). A
general line-by-line path takes over for anything unusual: comments, a missing or whitespace-only
separator, frames on the header line, orphan or malformed lines. Memory is bounded by the chunk size
plus the caches, whatever the file size. The stream is only ever read forward, so a counting wrapper
around it measures progress.

Where the time goes on a real deep capture (a system-wide `perf record -g` during a build: a few
thousand bytes a sample, most stacks new) decided the shape of the loop: the blank lines are found by
a compiled pattern (the `re` module's literal search is about three times `bytes.find`'s speed for a
two-byte needle, and this search reads every byte of the input); a record's line count comes with its
stack, cached, instead of from a second pass over its bytes; chunks of 1 MB stay in the processor's
cache while they are cut up; and the samples of a chunk are handed over as a list, not one generator
step each.

Samples whose call chain is empty are yielded with an empty stack (the exporters decide what to do
with them). A file whose last line has no newline keeps that line when it is whole: a frame line (it
ends with its module's `)`), or a header line after samples that were a header line each (`perf
record` without `-g`). Anything else there means perf was cut while writing: that sample is dropped and the
report says so. `PERF_RECORD_LOST lost N` lines (`--show-lost-events`) are counted per CPU and
reported once (`lost_events`). The text is read through `TextStream`, so a BOM or UTF-16 is no obstacle.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import BinaryIO

from stallscope.ingest.lost_events import LostEvents
from stallscope.ingest.model import Frame, ParseError, ParseReport, Sample, Stack
from stallscope.ingest.perf_script.detect import reject_non_text
from stallscope.ingest.perf_script.header import HEADER, normalise_event, thread_ids, time_ns
from stallscope.ingest.perf_script.header_shapes import HeaderShapes
from stallscope.ingest.perf_script.naming import NamingOptions, is_java_comm
from stallscope.ingest.perf_script.stacks import StackTable
from stallscope.ingest.text_lines import TextStream

CHUNK_BYTES = 1 << 20
MAX_RECORD_BYTES = 8 << 20
"""Past this without a blank line the input is cut at a line end (perf without -g writes no blanks)."""

_MAX_CACHED_NAMES = 100_000  # comms and event names; real captures have hundreds
_NEWLINE = ord("\n")
_RECORD_END = re.compile(rb"\n\n")
_NO_BODY: tuple[Stack, int] = ((), 0)
# A header's trailing text is a frame (perf without a call chain) when it reads "hex-address ... (x)".
_INLINE_FRAME = re.compile(rb"[0-9a-fA-F]+\s.*\)\Z")
_LOST = re.compile(rb"PERF_RECORD_LOST(?:_SAMPLES)? lost (\d{1,18})\s*\Z")
_LOST_CPU = re.compile(rb"\s\[(\d{1,4})\]\s")


@dataclass(slots=True)
class _Open:
    """A sample whose header has been read and whose frame lines are still coming."""

    line: int
    comm: str
    pid: int | None
    tid: int | None
    cpu: int | None
    time_ns: int | None
    event: str
    period: int | None
    trace_args: str | None
    java: bool
    parts: list[tuple[Frame, ...]] = field(default_factory=list)
    lines: int = 1


def parse_perf_script(
    stream: BinaryIO, report: ParseReport, options: NamingOptions | None = None
) -> Iterator[Sample]:
    """Yield the samples of `perf script` output read from `stream`, filling `report` as it goes.

    Raises ParseError when the input is not `perf script` text at all (checked on its first bytes and
    first line). An empty input, or one with only comments, yields nothing and leaves `report.samples`
    at 0; callers decide whether that is an error.
    """
    return _Parser(report, options or NamingOptions()).run(stream)


class _Parser:
    def __init__(self, report: ParseReport, options: NamingOptions) -> None:
        self.report = report
        self.table = StackTable(options, report.stack_codes)
        self._headers = HeaderShapes()
        self.seen_header = False
        self.cut_short = False
        self._comms: dict[bytes, tuple[str, bool]] = {}
        self._events: dict[bytes, str] = {}
        self._warned_lines: set[bytes] = set()
        self._lost = LostEvents()
        self._header_only = True
        """Whether the last sample read was its header line alone, or none was read (`_whole_last_line`)."""

    # -- the stream -----------------------------------------------------------------------------

    def run(self, stream: BinaryIO) -> Iterator[Sample]:
        pending = b""
        line_no = 1  # line number of pending's first line
        first = True
        for chunk in self._chunks(stream):
            if first:
                reject_non_text(chunk)
                first = False
            data = pending + chunk if pending else chunk
            if b"\r" in data:
                data = data.replace(b"\r\n", b"\n")
            cut = data.rfind(b"\n\n")
            samples: list[Sample] = []
            if cut >= 0:
                line_no = self._block(data, 0, cut, line_no, samples)
                pending = data[cut + 2 :]
            elif len(data) > MAX_RECORD_BYTES:
                cut = data.rfind(b"\n")
                if cut < 0:
                    reason = (
                        f"a line longer than {MAX_RECORD_BYTES >> 20} MB: this is not `perf script` output"
                    )
                    raise ParseError(line_no, reason)
                line_no = self._block(data, 0, cut, line_no, samples) - 1
                pending = data[cut + 1 :]
            else:
                pending = data
            yield from samples
        yield from self._tail(pending, line_no, self.cut_short)
        self._lost.warn_lost(self.report, "perf")

    def _chunks(self, stream: BinaryIO) -> Iterator[bytes]:
        """Big pieces of the stream, in order, until its end.

        Pieces are gathered with `read1` where the stream has it, so that a compressed stream that
        ends early (EOFError) loses only its last small piece; `cut_short` then records it.
        """
        text = TextStream(stream, CHUNK_BYTES)
        parts: list[bytes] = []
        size = 0
        for piece in text:
            parts.append(piece)
            size += len(piece)
            if size >= CHUNK_BYTES:
                yield parts[0] if len(parts) == 1 else b"".join(parts)
                parts.clear()
                size = 0
        if parts:
            yield b"".join(parts)
        self.cut_short = text.cut_short

    def _tail(self, pending: bytes, line_no: int, cut_short: bool) -> Iterator[Sample]:
        """The text after the last blank line: a complete last sample, or one perf did not finish."""
        if cut_short:
            self.report.truncated = True
            self.report.warn(line_no, "the compressed stream ends early; kept the complete samples")
        if not pending.strip():
            return
        if not cut_short and not pending.endswith(b"\n") and self._whole_last_line(pending):
            pending += b"\n"
        if pending.endswith(b"\n") and not cut_short:
            # No blank line after the last sample (hand-made files, older perf): it is complete.
            samples: list[Sample] = []
            self._block(pending, 0, len(pending.rstrip(b"\n")), line_no, samples)
            yield from samples
            return
        self.report.truncated = True
        complete, partial_at = pending, None
        if not pending.endswith(b"\n"):
            newline = pending.rfind(b"\n")
            complete = pending[: newline + 1]
            partial_at = line_no + complete.count(b"\n")
            partial = pending[newline + 1 :]
            if (
                not self.seen_header
                and not complete.strip()
                and not partial.startswith(b"#")
                and HEADER.match(partial) is None
            ):
                raise ParseError(partial_at, _not_perf_script(partial))
        stripped = complete.lstrip(b"\n")
        line_no += len(complete) - len(stripped)
        stripped = stripped.rstrip(b"\n")
        lines = stripped.split(b"\n") if stripped else []
        yield from self._slow(lines, line_no, incomplete_tail=True, partial_at=partial_at)

    def _whole_last_line(self, pending: bytes) -> bool:
        """Whether the text after the last newline reads as a whole line (see the module docstring)."""
        cut = pending.rfind(b"\n")
        last = pending[cut + 1 :].rstrip(b"\r")
        if last.startswith(b"#") or self.table.line_frames(last, False) is not None:
            return True
        before = pending[: max(cut, 0)].rstrip(b"\r\n")
        if before:  # the line above: a header too means the sample before was a header alone
            header_only = HEADER.match(before[before.rfind(b"\n") + 1 :].rstrip(b"\r")) is not None
        else:
            header_only = self._header_only
        return header_only and HEADER.match(last) is not None

    def _block(self, data: bytes, start: int, stop: int, line_no: int, out: list[Sample]) -> int:
        """Append to `out` the samples of `data[start:stop]`, whose records are separated by blank lines.

        Returns the line number just past the block and the blank line that ends it. The usual record
        (a header, then frame lines that all parse) is read here, in one loop with its look-ups bound
        to local names (this loop runs once a sample); anything else goes to `_slow`.
        """
        report, table = self.report, self.table
        find = data.find
        read_header = self._headers.read
        inline_frame = _INLINE_FRAME.match
        body_stack = table.body_stack
        start_sample = table.start_sample
        append = out.append
        ends = [found.start() for found in _RECORD_END.finditer(data, start, stop)]
        ends.append(stop)
        samples = 0
        for end in ends:
            if start >= stop:
                break
            while start < end and data[start] == _NEWLINE:  # runs of blank lines
                start += 1
                line_no += 1
            if start < end:
                start_sample()  # between records: where the table may start again
                newline = find(b"\n", start, end)
                header = data[start:end] if newline < 0 else data[start:newline]
                fields = read_header(header) if header[:1] != b"#" else None
                known = None
                if fields is not None and (not fields[3] or inline_frame(fields[3]) is None):
                    java = fields[0][1]
                    known = _NO_BODY if newline < 0 else body_stack(data[newline + 1 : end], java)
                if fields is None or known is None:  # anything unusual: line by line
                    out.extend(self._slow(data[start:end].split(b"\n"), line_no))
                    line_no += data.count(b"\n", start, end)
                else:
                    (comm, _, pid, tid, cpu), time, (period, event), rest = fields
                    stack, lines = known
                    self.seen_header = True
                    self._header_only = newline < 0
                    rest_text = rest.decode("utf-8", "replace") if rest else None
                    append(Sample(line_no, comm, pid, tid, cpu, time, event, period, stack, rest_text))
                    samples += 1
                    line_no += lines  # a newline before each body line
            line_no += 2
            start = end + 2
        report.samples += samples
        return line_no

    def _slow(
        self, lines: list[bytes], line_no: int, incomplete_tail: bool = False, partial_at: int | None = None
    ) -> Iterator[Sample]:
        """Line by line, for everything `_fast` declines; mirrors what the references do."""
        current: _Open | None = None
        orphans_from = 0
        orphans = 0
        for offset, raw in enumerate(lines):
            number = line_no + offset
            if raw.startswith(b"#"):
                continue
            if not raw.strip():  # a whitespace-only line ends a sample like a blank one
                if current is not None:
                    yield self._close(current)
                    current = None
                continue
            if current is not None:
                frames = self.table.line_frames(raw, current.java)
                if frames is not None:
                    current.parts.append(frames)
                    current.lines += 1
                    continue
            opened = self._open(raw, number)
            if opened is None and b"PERF_RECORD_LOST" in raw and self._lost_line(raw, number):
                continue
            if opened is not None:
                if current is not None:  # a header with no blank line before it
                    yield self._close(current)
                current = opened
                if orphans:
                    self._orphans(orphans_from, orphans)
                    orphans = 0
                if current.parts:  # the frame was on the header line: the sample is complete
                    yield self._close(current)
                    current = None
                continue
            if current is not None:
                self._malformed(raw, number)
                current.lines += 1
                continue
            if not self.seen_header and self.table.line_frames(raw, False) is None:
                # Frame lines before any header are the tail of a cut sample; anything else means
                # this is not perf script output at all.
                raise ParseError(number, _not_perf_script(raw))
            if not orphans:
                orphans_from = number
            orphans += 1
        if orphans:
            self._orphans(orphans_from, orphans)
        if current is not None and incomplete_tail:
            dropped = current.lines + (partial_at is not None)
            self.report.dropped_lines += dropped
            self.report.warn(
                current.line,
                f"the file ends in the middle of this sample (perf stopped while writing); "
                f"dropped its {dropped} line(s)",
            )
        elif current is not None:
            yield self._close(current)
        elif partial_at is not None:
            self.report.dropped_lines += 1
            self.report.warn(partial_at, "the file ends in the middle of this line; dropped it")

    def _open(self, raw: bytes, number: int) -> _Open | None:
        match = HEADER.match(raw)
        if match is None:
            return None
        self.seen_header = True
        comm, java = self._comm(match.group("comm"))
        pid, tid = thread_ids(match.group("pid"), match.group("tid"))
        cpu, time, period = match.group("cpu", "time", "period")
        rest = match.group("rest")
        inline: tuple[Frame, ...] | None = None
        if rest and _INLINE_FRAME.match(rest):
            inline = self.table.line_frames(rest, java)
        opened = _Open(
            number,
            comm,
            pid,
            tid,
            int(cpu) if cpu is not None else None,
            time_ns(time) if time is not None else None,
            self._event(match.group("event")),
            int(period) if period is not None else None,
            rest.decode("utf-8", "replace") if rest and inline is None else None,
            java,
        )
        if inline is not None:
            opened.parts.append(inline)
        return opened

    def _close(self, sample: _Open) -> Sample:
        frames = tuple(frame for part in reversed(sample.parts) for frame in part)
        self.report.samples += 1
        self._header_only = sample.lines == 1
        return Sample(
            sample.line,
            sample.comm,
            sample.pid,
            sample.tid,
            sample.cpu,
            sample.time_ns,
            sample.event,
            sample.period,
            self.table.intern(frames),
            sample.trace_args,
        )

    # -- small helpers ----------------------------------------------------------------------------

    def _comm(self, raw: bytes) -> tuple[str, bool]:
        found = self._comms.get(raw)
        if found is None:
            comm = raw.decode("utf-8", "replace").strip()
            found = (comm, is_java_comm(comm))
            if len(self._comms) < _MAX_CACHED_NAMES:
                self._comms[raw] = found
        return found

    def _event(self, raw: bytes) -> str:
        found = self._events.get(raw)
        if found is None:
            found = normalise_event(raw.decode("utf-8", "replace"))
            if len(self._events) < _MAX_CACHED_NAMES:
                self._events[raw] = found
        return found

    def _lost_line(self, raw: bytes, number: int) -> bool:
        """`comm pid [cpu] time: PERF_RECORD_LOST lost 190`: counted, not dropped."""
        lost = _LOST.search(raw)
        if lost is None:
            return False
        cpu = _LOST_CPU.search(raw)
        self._lost.add(number, int(cpu.group(1)) if cpu is not None else None, int(lost.group(1)))
        return True

    def _malformed(self, raw: bytes, number: int) -> None:
        """A line inside a sample that is not a frame: dropped, warned about once per distinct text."""
        self.report.dropped_lines += 1
        if raw not in self._warned_lines and len(self._warned_lines) < 10_000:
            self._warned_lines.add(raw)
            self.report.warn(number, f"not a stack frame line, dropped: {_quote(raw)}")

    def _orphans(self, first: int, count: int) -> None:
        """Lines outside any sample (e.g. after a stray blank line inside a stack): one warning."""
        self.report.dropped_lines += count
        where = "this line" if count == 1 else f"{count} lines from here"
        self.report.warn(first, f"{where} not part of any sample (no header before them), dropped")


def _quote(raw: bytes, limit: int = 120) -> str:
    text = raw.decode("utf-8", "replace").strip()
    return repr(text if len(text) <= limit else text[:limit] + "…")


def _not_perf_script(raw: bytes) -> str:
    return (
        "not `perf script` output: expected a sample header such as "
        "`comm 1234 [000] 12.345678: 1001001 cpu-clock:`, found " + _quote(raw)
    )
