"""Open captures whether they arrive plain, gzip- or zstd-compressed, whole or damaged.

Users upload what their hosts produced (`perf script | gzip`, `zstd`, `cat a.gz b.gz`), so every
reader goes through here and nothing else needs to know about compression. Decoding and its policy
for multi-member, padded, cut and corrupt streams live in `kit/stream_decoder.py`; here a damaged
stream ends cleanly after the last byte that decoded and the damage goes to the parse report, so
the importers keep every record before it without knowing anything happened.
"""

from __future__ import annotations

import enum
import io
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO, Protocol

from stallscope.kit.stream_decoder import (
    CorruptCompression,
    StreamDecoder,
    StreamFormat,
    gzip_format,
    zstd_format,
)

if TYPE_CHECKING:
    from _typeshed import WriteableBuffer

GZIP_MAGIC = b"\x1f\x8b"
ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"
READ_BUFFER_BYTES = 1 << 20
RAW_READ_BYTES = 64 * 1024


class Compression(enum.Enum):
    NONE = "none"
    GZIP = "gzip"
    ZSTD = "zstd"


def sniff_compression(head: bytes) -> Compression:
    """Tell the compression from the first bytes, never from the file name."""
    if head.startswith(GZIP_MAGIC):
        return Compression.GZIP
    if head.startswith(ZSTD_MAGIC):
        return Compression.ZSTD
    return Compression.NONE


def stream_format(compression: Compression) -> StreamFormat | None:
    """How to decode a stream of this compression; None for plain bytes."""
    if compression is Compression.GZIP:
        return gzip_format()
    if compression is Compression.ZSTD:
        return zstd_format()
    return None


class ProblemReport(Protocol):
    """Where a reader records the damage it met; `ingest.model.ParseReport` is one."""

    truncated: bool

    def warn(self, line: int, message: str) -> None: ...


class DecompressingReader(io.RawIOBase):
    """Decompressed bytes of `raw`; at damage, ends the stream and tells `report` what was lost.

    The warning names the line the damage cuts into (lines are counted as they pass) and the
    compressed byte. Without a report, and when nothing at all decoded, it raises instead:
    silently ending early would pass off a part for the whole.
    """

    def __init__(
        self, raw: BinaryIO, decoder: StreamDecoder, report: ProblemReport | None, close_raw: bool
    ) -> None:
        super().__init__()
        self._raw = raw
        self._decoder = decoder
        self._report = report
        self._close_raw = close_raw
        self._lines = 0
        self._settled = False

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: WriteableBuffer) -> int:
        with memoryview(buffer) as view:
            while True:
                data = self._decoder.pull(len(view))
                if data:
                    view[: len(data)] = data
                    self._lines += data.count(b"\n")
                    return len(data)
                if self._decoder.done:
                    self._settle()
                    return 0
                chunk = self._raw.read(RAW_READ_BYTES)
                if chunk:
                    self._decoder.push(chunk)
                else:
                    self._decoder.close()

    def _settle(self) -> None:
        problem = self._decoder.problem
        if self._settled or problem is None:
            return
        self._settled = True
        if self._report is None or (problem.loses_data and problem.decoded_bytes == 0):
            raise CorruptCompression(problem.message)
        self._report.warn(self._lines + 1, problem.message)
        if problem.loses_data:
            self._report.truncated = True

    def close(self) -> None:
        if not self.closed and self._close_raw:
            self._raw.close()
        super().close()


def decompressing_reader(
    raw: BinaryIO, compression: Compression, report: ProblemReport | None = None, *, close_raw: bool = False
) -> BinaryIO:
    """Wrap `raw` so reads return decompressed bytes; `raw` is read lazily, in order.

    Damage (a cut or corrupt stream, trailing garbage) goes to `report` as a warning once the
    decodable bytes are read; without a report it raises `CorruptCompression` there.
    """
    stream = stream_format(compression)
    if stream is None:
        return raw
    reader = DecompressingReader(raw, StreamDecoder(stream), report, close_raw)
    return io.BufferedReader(reader, buffer_size=READ_BUFFER_BYTES)


def open_capture(path: Path, report: ProblemReport | None = None) -> BinaryIO:
    """Open a capture file for reading its decompressed bytes (see `decompressing_reader`)."""
    return decompressed(open(path, "rb"), report)


def decompressed(raw: io.BufferedReader, report: ProblemReport | None = None) -> BinaryIO:
    """The decompressed bytes of a stored capture, whatever its compression; closing it closes `raw`."""
    try:
        compression = sniff_compression(raw.peek(4)[:4])
        return decompressing_reader(raw, compression, report, close_raw=True)
    except BaseException:
        raw.close()
        raise
