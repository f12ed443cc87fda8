"""The complete lines of a text capture, read in big chunks, for the line-oriented importers.

Splitting a multi-megabyte chunk with `bytes.split` is several times cheaper than reading line by line,
and it keeps memory bounded by the chunk size. What follows the last newline is kept apart: a capture
that ends mid-line was cut while its tool was writing, and each importer decides (usually: drop it and
say so). A compressed stream that ends early raises EOFError inside the decompressor; it is caught
here and recorded as `cut_short`.

Used by the collapsed, DTrace, perf trace, systemtap and ftrace importers (it lives here because this
is the simplest of them).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import BinaryIO

from stallscope.ingest.model import ParseError, ParseReport
from stallscope.ingest.perf_script.detect import PERF_DATA_MESSAGE, looks_binary, looks_like_perf_data

CHUNK_BYTES = 4 << 20
MAX_LINE_BYTES = 8 << 20


class TextLines:
    """Iterate `batches()` once; afterwards `partial` holds the unterminated tail, if any."""

    def __init__(self, stream: BinaryIO, chunk_bytes: int = CHUNK_BYTES) -> None:
        self._stream = stream
        self._chunk_bytes = chunk_bytes
        self.head = b""
        """The first chunk as read, for the importer's own "is this my format at all" check."""
        self.cut_short = False
        self.partial = b""
        self.partial_line = 1
        """1-based number of the line `partial` would have been."""

    def batches(self) -> Iterator[tuple[int, list[bytes]]]:
        """(number of the first line, lines without their newline or carriage return), chunk by chunk."""
        pending = b""
        line_no = 1
        for chunk in self._chunks():
            if not self.head:
                self.head = chunk
            data = pending + chunk if pending else chunk
            cut = data.rfind(b"\n")
            if cut < 0:
                if len(data) > MAX_LINE_BYTES:
                    raise ParseError(
                        line_no, f"a line longer than {MAX_LINE_BYTES >> 20} MB: not a text capture"
                    )
                pending = data
                continue
            body = data[:cut]
            if b"\r" in body:
                body = body.replace(b"\r\n", b"\n").replace(b"\r", b"")
            lines = body.split(b"\n")
            yield line_no, lines
            line_no += len(lines)
            pending = data[cut + 1 :]
        self.partial = pending.rstrip(b"\r")
        self.partial_line = line_no

    def _chunks(self) -> Iterator[bytes]:
        read = getattr(self._stream, "read1", None) or self._stream.read
        while True:
            try:
                piece: bytes = read(self._chunk_bytes)
            except EOFError:
                self.cut_short = True
                return
            if not piece:
                return
            yield piece


def note_cut_tail(lines: TextLines, report: ParseReport, what: str = "line") -> bool:
    """Record a cut tail (a last line with no newline, or a compressed stream that ends early).

    Returns True when the partial last line holds text, which the caller has dropped.
    """
    dropped = bool(lines.partial.strip())
    if lines.cut_short:
        report.truncated = True
        report.warn(lines.partial_line, "the compressed stream ends early; kept the complete lines")
    if dropped:
        report.truncated = True
        report.dropped_lines += 1
        report.warn(lines.partial_line, f"the file ends in the middle of this {what}; dropped it")
    return dropped


def sniff_lines(head: bytes, limit: int = 200) -> list[bytes] | None:
    """The first complete lines of a sniffed head, or None when the head is not text at all.

    The last line is left out when the window may have cut it (a full window, or no final newline).
    """
    if looks_like_perf_data(head) or looks_binary(head):
        return None
    lines = head.replace(b"\r\n", b"\n").split(b"\n", limit + 1)
    if len(lines) > limit:
        return lines[:limit]
    lines.pop()  # after the final newline (empty), or a line the window may have cut
    return lines


def reject_non_text(head: bytes, format_name: str) -> None:
    """ParseError for a perf.data file or binary junk, named for the format that was expected."""
    if looks_like_perf_data(head):
        raise ParseError(0, PERF_DATA_MESSAGE)
    if looks_binary(head):
        raise ParseError(
            0, f"this is binary data, not {format_name} text (a compressed format other than gzip or zstd?)"
        )
