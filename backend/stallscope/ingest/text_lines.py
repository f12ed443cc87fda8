"""The complete lines of a text capture, read in big chunks, for every line-oriented importer.

Splitting a multi-megabyte chunk in C is several times cheaper than reading line by line (and on an
unbuffered reader, such as a sniffed upload put back together, `readline` costs a read per byte),
and it keeps memory bounded by the chunk size. `TextLines` hands the lines over a chunk at a time,
in the shape the importer works in:

- `blocks`: the chunk's complete lines as one `bytes`, for parsers that decode or split it at once;
- `batches`: a list of lines, carriage returns removed (the event and stack importers);
- `chunks`, or iterating: a list of lines as they are, the last one included even without its
  newline (the metrics importers, which judge that line themselves: `cut_tail` says which it was).

With `blocks` and `batches`, what follows the last newline is kept apart in `partial`: a capture that
ends mid-line was cut while its tool was writing, and each importer decides (usually: drop it and say
so, `note_cut_tail`). A compressed stream that ends early raises EOFError inside the decompressor;
it is caught and recorded as `cut_short`, unless the importer asks for it to propagate.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import BinaryIO

from stallscope.ingest.model import ParseError, ParseReport
from stallscope.ingest.perf_script.detect import PERF_DATA_MESSAGE, looks_binary, looks_like_perf_data

CHUNK_BYTES = 4 << 20
HEAD_BYTES = 64 << 10
"""As much of the first chunk as `head` keeps: what `reject_non_text` looks at. Keeping the whole chunk
would also keep its memory from being reused for the next one, which costs page faults."""
MAX_LINE_BYTES = 16 << 20
"""A longer line means the input is not line-oriented text; stop before holding it all."""


class TextLines:
    """Read one of `blocks`, `batches`, `chunks` or the lines themselves, once.

    `tolerate_cut_stream`: read with `read1` where the stream has it, so that a compressed stream
    that ends early loses only its last small piece, and stop there with `cut_short` set; when False,
    read with `read` and let the EOFError through.
    """

    def __init__(
        self, stream: BinaryIO, chunk_bytes: int = CHUNK_BYTES, *, tolerate_cut_stream: bool = True
    ) -> None:
        self._stream = stream
        self._chunk_bytes = chunk_bytes
        self._tolerate_cut_stream = tolerate_cut_stream
        self.head = b""
        """The start of the first chunk, for the importer's own "is this my format at all" check."""
        self.cut_short = False
        self.number = 0
        """The 1-based number of the last line handed over."""
        self.partial = b""
        """What follows the last newline (`blocks`, `batches`), once they are read."""
        self.partial_line = 1
        """1-based number of the line `partial` would have been."""
        self.cut_tail = False
        """True once `chunks` (or iterating) has handed over a last line that had no newline."""

    def blocks(self) -> Iterator[tuple[int, bytes]]:
        """(number of the first line, the complete lines joined by `\\n`), chunk by chunk."""
        pending = b""
        for piece in self._pieces():
            if not self.head:
                self.head = piece[:HEAD_BYTES]
            data = pending + piece if pending else piece
            end = data.rfind(b"\n")
            if end >= 0:
                body, pending = data[:end], data[end + 1 :]
                first = self.number + 1
                self.number += body.count(b"\n") + 1
                self._check(pending)
                yield first, body
            else:
                pending = data
                self._check(pending)
        self.partial = pending
        self.partial_line = self.number + 1

    def batches(self) -> Iterator[tuple[int, list[bytes]]]:
        """(number of the first line, lines without their newline or carriage return), chunk by chunk."""
        for lines in self._split(strip_cr=True):
            yield self.number - len(lines) + 1, lines

    def chunks(self) -> Iterator[list[bytes]]:
        """The lines as they are (a `\\r` before a newline kept), chunk by chunk, then the line after
        the last newline, if any, as a chunk of its own; `number` is each chunk's last line."""
        yield from self._split(strip_cr=False)
        last = self.last_line()
        if last is not None:
            yield [last]

    def last_line(self) -> bytes | None:
        """After `blocks`: `partial` handed over as a line (`number` and `cut_tail` then count it), or
        None when the text ends with its newline."""
        if not self.partial:
            return None
        self.number += 1
        self.cut_tail = True
        return self.partial

    def __iter__(self) -> Iterator[bytes]:
        """The same lines as `chunks`, one at a time; `number` is the line's."""
        for lines in self.chunks():
            first = self.number - len(lines)
            for offset, line in enumerate(lines, 1):
                self.number = first + offset
                yield line

    def _split(self, strip_cr: bool) -> Iterator[list[bytes]]:
        """`blocks` as lists of lines: one split of each chunk, no copy of its body first."""
        pending = b""
        for piece in self._pieces():
            if not self.head:
                self.head = piece[:HEAD_BYTES]
            data = pending + piece if pending else piece
            if strip_cr and b"\r" in data:
                data = data.replace(b"\r", b"")  # a `\r` between lines, or any other: none is kept
            lines = data.split(b"\n")
            pending = lines.pop()
            self.number += len(lines)
            self._check(pending)
            if lines:
                yield lines
        self.partial = pending
        self.partial_line = self.number + 1

    def _check(self, pending: bytes) -> None:
        if len(pending) > MAX_LINE_BYTES:
            raise ParseError(
                self.number + 1, f"a line longer than {MAX_LINE_BYTES >> 20} MiB: not line-oriented text"
            )

    def _pieces(self) -> Iterator[bytes]:
        if not self._tolerate_cut_stream:
            while data := self._stream.read(self._chunk_bytes):
                yield data
            return
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
