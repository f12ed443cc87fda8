"""What an upload is, measured while it streams in: its SHA-256, its size, its size decompressed.

The decompressed size is how zip bombs and oversized captures are refused without ever holding the
decompressed data, whichever store the bytes go to (`blobs/local.py`, `blobs/s3.py`).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Protocol

from stallscope.kit.compression import Compression, sniff_compression, stream_format
from stallscope.kit.stream_decoder import CorruptCompression, StreamDecoder

__all__ = ["CorruptCompression", "Measured", "UploadMeter", "UploadTooLarge"]

SNIFF_BYTES = 4
DECOMPRESS_STEP = 1 << 20


class UploadTooLarge(Exception):
    """The upload is over the configured limit once decompressed."""

    def __init__(self, limit_bytes: int) -> None:
        super().__init__(
            f"the capture is larger than the server's limit of {limit_bytes:,} bytes after "
            "decompression; raise STALLSCOPE_MAX_UPLOAD_BYTES or split the capture"
        )
        self.limit_bytes = limit_bytes


@dataclass(frozen=True, slots=True)
class Measured:
    sha256: str
    size_bytes: int
    size_uncompressed: int
    compression: Compression


class _SizeMeter(Protocol):
    def feed(self, chunk: bytes, budget: int) -> int: ...
    def finish(self, budget: int) -> int: ...


class _PlainMeter:
    def feed(self, chunk: bytes, budget: int) -> int:
        return len(chunk)

    def finish(self, budget: int) -> int:
        return 0


class _DecodingMeter:
    """Counts decompressed bytes without keeping them, through the decoder the parser uses.

    So the two agree on every odd stream (see `kit/stream_decoder.py`): several members are all
    counted, padding and trailing garbage count nothing, and damage is refused only when nothing
    decodes before it. Work stops as soon as the count passes the budget, so a bomb costs at most
    the limit's worth of decompression.
    """

    def __init__(self, decoder: StreamDecoder) -> None:
        self._decoder = decoder

    def feed(self, chunk: bytes, budget: int) -> int:
        self._decoder.push(chunk)
        return self._drain(budget)

    def finish(self, budget: int) -> int:
        self._decoder.close()
        return self._drain(budget)

    def _drain(self, budget: int) -> int:
        produced = 0
        while produced <= budget and (out := self._decoder.pull(DECOMPRESS_STEP)):
            produced += len(out)
        problem = self._decoder.problem
        if problem is not None and problem.loses_data and self._decoder.decoded == 0:
            raise CorruptCompression(problem.message)
        return produced


def _meter_for(compression: Compression) -> _SizeMeter:
    stream = stream_format(compression)
    return _PlainMeter() if stream is None else _DecodingMeter(StreamDecoder(stream))


class UploadMeter:
    """Fed every chunk of an upload in order; raises UploadTooLarge or CorruptCompression as soon as
    the bytes so far show it."""

    def __init__(self, max_uncompressed_bytes: int) -> None:
        self._limit = max_uncompressed_bytes
        self._hash = hashlib.sha256()
        self._size = 0
        self._uncompressed = 0
        self._head = b""
        self._meter: _SizeMeter | None = None
        self._compression = Compression.NONE

    def feed(self, chunk: bytes) -> None:
        if not chunk:
            return
        self._hash.update(chunk)
        self._size += len(chunk)
        if self._size > self._limit:  # padding, garbage or skippable frames decompress to nothing
            raise UploadTooLarge(self._limit)
        if self._meter is None:
            self._head += chunk
            if len(self._head) < SNIFF_BYTES:
                return
            self._compression = sniff_compression(self._head)
            self._meter = _meter_for(self._compression)
            chunk, self._head = self._head, b""
        self._uncompressed += self._meter.feed(chunk, self._limit - self._uncompressed)
        if self._uncompressed > self._limit:
            raise UploadTooLarge(self._limit)

    def finish(self) -> Measured:
        """Check the upload's end (a stream cut short, a bomb in its last bytes) and say what it was."""
        if self._meter is None:  # fewer than SNIFF_BYTES in the whole upload
            self._compression = sniff_compression(self._head)
            self._meter = _meter_for(self._compression)
            self._uncompressed += self._meter.feed(self._head, self._limit)
        self._uncompressed += self._meter.finish(self._limit - self._uncompressed)
        if self._uncompressed > self._limit:
            raise UploadTooLarge(self._limit)
        return Measured(self._hash.hexdigest(), self._size, self._uncompressed, self._compression)
