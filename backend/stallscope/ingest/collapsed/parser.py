"""Already-collapsed stacks (`comm;caller;callee 123`) to samples weighted by their count.

The first frame is taken as the comm, so that folding the samples again writes the same line back
(our folded export puts the comm first, as stackcollapse-perf.pl does). Annotation suffixes that the
collapsers add on request (`_[k]` kernel, `_[j]` JIT, `_[i]` inlined) become frame kinds and are
stripped, so they are not doubled on export. The lines carry no times: `time_ns` is None and the
count is the sample's period.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import BinaryIO

from stallscope.ingest.model import Frame, FrameKind, ParseError, ParseReport, Sample, Stack
from stallscope.ingest.text_lines import TextLines, drop_line, note_cut_tail, reject_non_text
from stallscope.ingest.value_ranges import INT64_DIGITS, INT64_MAX

EVENT = "collapsed"
MAX_CACHED_STACKS = 50_000
"""Distinct stack texts remembered; past this, or `MAX_CACHED_STACK_BYTES` of them, the cache starts
again (memory stays bounded however long or deep the lines)."""
MAX_CACHED_STACK_BYTES = 32 << 20
MAX_CACHED_FRAMES = 250_000
"""Frame names interned; past this the table starts again (cached stacks keep their own frames)."""
_SUFFIX_KINDS = {"_[k]": FrameKind.KERNEL, "_[j]": FrameKind.JIT, "_[i]": FrameKind.INLINE}


def parse_collapsed(stream: BinaryIO, report: ParseReport) -> Iterator[Sample]:
    """Yield one sample per collapsed line of `stream`.

    Raises ParseError when the first line with text is not `frames count`; later bad lines are
    dropped with a warning.
    """
    return _Parser(report).run(stream)


def split_line(text: bytes) -> tuple[bytes, int] | None:
    """`a;b;c 12` -> (b"a;b;c", 12); None if the line does not end in a space and a count that a
    sample's 64-bit weight holds."""
    stack, sep, count = text.rstrip().rpartition(b" ")
    if not sep or not stack.strip() or not count.isdigit() or len(count) > INT64_DIGITS:
        return None
    weight = int(count)
    # Frames may end in a space (perf names a symbol-less frame " "): the stack is kept as written.
    return (stack, weight) if weight <= INT64_MAX else None


class _Parser:
    def __init__(self, report: ParseReport) -> None:
        self.report = report
        self._frames: dict[str, Frame] = {}
        self._stacks: dict[bytes, tuple[str, Stack]] = {}
        self._stack_bytes = 0
        self._seen_sample = False

    def run(self, stream: BinaryIO) -> Iterator[Sample]:
        lines = TextLines(stream, comments=True)
        report = self.report
        for first, batch in lines.batches():
            if first == 1:
                reject_non_text(lines.head, "collapsed-stack")
            stacks = self._stacks
            for offset, raw in enumerate(batch):
                parts = split_line(raw)
                if parts is None:
                    if raw.strip():
                        self._bad_line(lines, first + offset, raw)
                    continue
                text, count = parts
                found = stacks.get(text)
                if found is None:
                    found = self._learn(text)
                self._seen_sample = True
                report.samples += 1
                yield Sample(first + offset, found[0], None, None, None, None, EVENT, count, found[1])
        note_cut_tail(lines, report)

    def _learn(self, text: bytes) -> tuple[str, Stack]:
        names = text.decode("utf-8", "replace").split(";")
        frames = tuple(self._frame(name) for name in names[1:])
        found = (names[0], frames)
        if len(self._stacks) >= MAX_CACHED_STACKS or self._stack_bytes >= MAX_CACHED_STACK_BYTES:
            self._stacks.clear()
            self._stack_bytes = 0
        self._stacks[text] = found
        self._stack_bytes += len(text)
        return found

    def _frame(self, annotated: str) -> Frame:
        frame = self._frames.get(annotated)
        if frame is None:
            name, kind = annotated, FrameKind.USER
            suffix_kind = _SUFFIX_KINDS.get(annotated[-4:])
            if suffix_kind is not None:
                name, kind = annotated[:-4], suffix_kind
            if len(self._frames) >= MAX_CACHED_FRAMES:
                self._frames.clear()
            frame = self._frames[annotated] = Frame(name, kind)
        return frame

    def _bad_line(self, lines: TextLines, number: int, raw: bytes) -> None:
        if not self._seen_sample:
            text = raw.decode("utf-8", "replace").strip()[:120]
            raise ParseError(
                number, f"not collapsed stacks: expected `frame;frame;... count`, found {text!r}"
            )
        drop_line(lines, self.report, number, "not a `frames count` line, dropped")
