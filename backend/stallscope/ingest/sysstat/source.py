"""Numbered, decoded lines for the sysstat parsers, a chunk at a time, with one line of look-ahead.

The tools always end a line before starting the next, so a last line without its newline was cut
(the tool was killed mid-write, or the upload stopped): it is dropped and the report says so, rather
than read as a row whose last number lost its digits. A chunk is decoded in one call, not a line at a
time: a newline byte always ends a bad UTF-8 sequence, so the text is the same either way.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import BinaryIO

from stallscope.ingest.appmetrics.common import text_lines
from stallscope.ingest.model import ParseReport
from stallscope.ingest.text_lines import TextLines

Line = tuple[int, str]
Batch = tuple[int, list[str]]
"""The number of a chunk's first line, and its lines (without their `\\n`)."""


class Source:
    """Look at the first lines with `peek`/`next_nonblank`, then read the rest with `batches`."""

    def __init__(self, stream: BinaryIO, report: ParseReport) -> None:
        self._chunks = self._decoded(text_lines(stream), report)
        self._first = 1
        self._lines: list[str] = []
        self._at = 0

    @staticmethod
    def _decoded(reader: TextLines, report: ParseReport) -> Iterator[Batch]:
        for first, block in reader.blocks():
            yield first, block.decode("utf-8", "replace").split("\n")
        if reader.partial:
            report.truncated = True
            report.dropped_lines += 1
            report.warn(reader.partial_line, "the file ends in the middle of this line; dropped it")

    def batches(self) -> Iterator[Batch]:
        """Every line not yet read, a chunk at a time."""
        if self._at < len(self._lines):
            rest = self._lines[self._at :] if self._at else self._lines
            yield self._first + self._at, rest
        self._lines, self._at = [], 0
        # A plain loop, not `yield from`: closing this iterator early must not close the chunks.
        for batch in self._chunks:  # noqa: UP028
            yield batch

    def next_nonblank(self) -> Line | None:
        """The next line with any text, consumed; None at the end."""
        while True:
            if self._at >= len(self._lines):
                batch = next(self._chunks, None)
                if batch is None:
                    return None
                self._first, self._lines = batch
                self._at = 0
            text = self._lines[self._at]
            self._at += 1
            if text.strip():
                return self._first + self._at - 1, text

    def peek(self) -> Line | None:
        """The next line with any text, left in place for the next reader."""
        found = self.next_nonblank()
        if found is not None:
            self._at -= 1
        return found
