"""Byte-stream helpers for sniffing a capture's head without losing it to the parser."""

from __future__ import annotations

import io
from typing import BinaryIO


class PrefixedReader(io.RawIOBase):
    """Reads `prefix` first, then the rest of `stream`: lets us sniff a non-seekable stream."""

    def __init__(self, prefix: bytes, stream: BinaryIO) -> None:
        self._prefix = memoryview(prefix)
        self._stream = stream

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        if self._prefix:
            n = min(len(buffer), len(self._prefix))
            buffer[:n] = self._prefix[:n]
            self._prefix = self._prefix[n:]
            return n
        data = self._stream.read(len(buffer))
        buffer[: len(data)] = data
        return len(data)


def read_head(stream: BinaryIO, size: int) -> bytes:
    """Read up to `size` bytes, looping over short reads (decompressors return what they have)."""
    parts: list[bytes] = []
    remaining = size
    while remaining > 0:
        chunk = stream.read(remaining)
        if not chunk:
            break
        parts.append(chunk)
        remaining -= len(chunk)
    return b"".join(parts)
