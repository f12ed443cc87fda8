"""Lines of a byte stream, read in large chunks, with a note of whether the last one was cut.

Iterating a stream line by line costs a `readline` call per line, and on an unbuffered reader (a
sniffed, re-prefixed upload) a read per byte; splitting 1 MiB chunks in C is much cheaper. A final
line without its newline is still yielded: the parser decides whether it is a cut record or just a
hand-written file without a trailing newline, and `cut_tail` tells it which line that was.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import BinaryIO

from stallscope.ingest.model import ParseError

CHUNK_BYTES = 1 << 20
MAX_LINE_BYTES = 16 << 20
"""A longer line means the input is not line-oriented text; stop before holding it all."""


class LineReader:
    """The lines of `stream` without their `\\n`; `number` is the 1-based number of the last one read."""

    def __init__(self, stream: BinaryIO, chunk_bytes: int = CHUNK_BYTES) -> None:
        self._stream = stream
        self._chunk_bytes = chunk_bytes
        self.number = 0
        self.cut_tail = False
        """True once the last line has been read and it had no newline after it."""

    def __iter__(self) -> Iterator[bytes]:
        for lines in self.chunks():
            first = self.number - len(lines)
            for offset, line in enumerate(lines, 1):
                self.number = first + offset
                yield line

    def chunks(self) -> Iterator[list[bytes]]:
        """The same lines a chunk at a time, for parsers that batch work; `number` is the chunk's last."""
        rest = b""
        while True:
            chunk = self._stream.read(self._chunk_bytes)
            if not chunk:
                break
            lines = (rest + chunk if rest else chunk).split(b"\n")
            rest = lines.pop()
            self.number += len(lines)
            if len(rest) > MAX_LINE_BYTES:
                raise ParseError(
                    self.number + 1, f"a line longer than {MAX_LINE_BYTES >> 20} MiB: not line-oriented text"
                )
            if lines:
                yield lines
        if rest:
            self.number += 1
            self.cut_tail = True
            yield [rest]
