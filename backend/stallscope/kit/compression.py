"""Open captures whether they arrive plain, gzip- or zstd-compressed.

Users upload what their hosts produced (`perf script | gzip`, `zstd`), so every reader goes through
here and nothing else needs to know about compression.
"""

from __future__ import annotations

import enum
import gzip
import io
from pathlib import Path
from typing import BinaryIO

import zstandard

GZIP_MAGIC = b"\x1f\x8b"
ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"
READ_BUFFER_BYTES = 1 << 20


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


def decompressing_reader(raw: BinaryIO, compression: Compression) -> BinaryIO:
    """Wrap `raw` so reads return decompressed bytes; `raw` is read lazily, in order."""
    if compression is Compression.GZIP:
        return gzip.GzipFile(fileobj=raw, mode="rb")  # type: ignore[return-value]
    if compression is Compression.ZSTD:
        reader = zstandard.ZstdDecompressor().stream_reader(raw, read_size=READ_BUFFER_BYTES)
        return io.BufferedReader(reader, buffer_size=READ_BUFFER_BYTES)
    return raw


def open_capture(path: Path) -> BinaryIO:
    """Open a capture file for reading its decompressed bytes."""
    raw = open(path, "rb")  # noqa: SIM115 - ownership passes to the returned reader
    head = raw.peek(4) if isinstance(raw, io.BufferedReader) else b""
    return decompressing_reader(raw, sniff_compression(head))
