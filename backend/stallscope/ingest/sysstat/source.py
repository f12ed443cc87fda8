"""Numbered, decoded lines for the sysstat parsers, with one line of look-ahead.

The tools always end a line before starting the next, so a last line without its newline was cut
(the tool was killed mid-write, or the upload stopped): it is dropped and the report says so, rather
than read as a row whose last number lost its digits.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import BinaryIO

from stallscope.ingest.appmetrics.lines import LineReader
from stallscope.ingest.model import ParseReport

Line = tuple[int, str]


class Source:
    """Iterate as (1-based line number, text); `peek` looks at the next non-blank line."""

    def __init__(self, stream: BinaryIO, report: ParseReport) -> None:
        self._reader = LineReader(stream)
        self._lines = self._read(report)
        self._ahead: list[Line] = []

    def _read(self, report: ParseReport) -> Iterator[Line]:
        reader = self._reader
        for raw in reader:
            if reader.cut_tail:
                report.truncated = True
                report.dropped_lines += 1
                report.warn(reader.number, "the file ends in the middle of this line; dropped it")
                return
            yield reader.number, raw.decode("utf-8", "replace")

    def __iter__(self) -> Iterator[Line]:
        while self._ahead:
            yield self._ahead.pop(0)
        # A plain loop, not `yield from`: closing this iterator early must not close the shared one.
        for line in self._lines:  # noqa: UP028
            yield line

    def next_nonblank(self) -> Line | None:
        """The next line with any text, consumed; None at the end."""
        for line in self:
            if line[1].strip():
                return line
        return None

    def peek(self) -> Line | None:
        """The next line with any text, left in place for the next reader."""
        found = self.next_nonblank()
        if found is not None:
            self._ahead.append(found)
        return found
