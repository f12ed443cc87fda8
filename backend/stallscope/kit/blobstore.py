"""Content-addressed storage for raw uploads, written before anything parses them.

Every upload is kept byte for byte (compressed as it came) under its SHA-256, so a parser bug or a
new parser version can always re-read the original. While the bytes stream in we also measure their
decompressed size, which is how zip bombs and oversized captures are refused without ever holding
the decompressed data.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Protocol, cast

import zstandard

from stallscope.kit.compression import Compression, sniff_compression

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


class CorruptCompression(Exception):
    """The bytes claim a compression format but do not decompress."""


@dataclass(frozen=True, slots=True)
class StoredBlob:
    sha256: str
    path: Path
    size_bytes: int
    size_uncompressed: int
    compression: Compression


class _SizeMeter(Protocol):
    def feed(self, chunk: bytes) -> int: ...
    def finish(self) -> int: ...


class _PlainMeter:
    def feed(self, chunk: bytes) -> int:
        return len(chunk)

    def finish(self) -> int:
        return 0


class _GzipMeter:
    """Counts gzip output in bounded steps; handles multi-member files (`cat a.gz b.gz`)."""

    def __init__(self) -> None:
        self._inflater = zlib.decompressobj(wbits=47)

    def feed(self, chunk: bytes) -> int:
        produced = 0
        data = chunk
        while data:
            try:
                out = self._inflater.decompress(data, DECOMPRESS_STEP)
            except zlib.error as exc:
                raise CorruptCompression(f"the gzip data is corrupt: {exc}") from exc
            produced += len(out)
            if self._inflater.unconsumed_tail:
                data = self._inflater.unconsumed_tail
            elif self._inflater.eof:
                data = self._inflater.unused_data
                self._inflater = zlib.decompressobj(wbits=47)
            else:
                data = b""
        return produced

    def finish(self) -> int:
        return len(self._inflater.flush())


class _CountingSink:
    def __init__(self) -> None:
        self.count = 0

    def write(self, data: bytes) -> int:
        self.count += len(data)
        return len(data)


class _ZstdMeter:
    def __init__(self) -> None:
        self._sink = _CountingSink()
        self._writer = zstandard.ZstdDecompressor().stream_writer(
            cast(IO[bytes], self._sink), write_size=DECOMPRESS_STEP
        )

    def feed(self, chunk: bytes) -> int:
        before = self._sink.count
        try:
            self._writer.write(chunk)
        except zstandard.ZstdError as exc:
            raise CorruptCompression(f"the zstd data is corrupt: {exc}") from exc
        return self._sink.count - before

    def finish(self) -> int:
        return 0


def _meter_for(compression: Compression) -> _SizeMeter:
    if compression is Compression.GZIP:
        return _GzipMeter()
    if compression is Compression.ZSTD:
        return _ZstdMeter()
    return _PlainMeter()


class BlobWriter:
    """Receives an upload chunk by chunk; `commit` moves it to its content address."""

    def __init__(self, root: Path, max_uncompressed_bytes: int) -> None:
        self._root = root
        self._limit = max_uncompressed_bytes
        (root / "incoming").mkdir(parents=True, exist_ok=True)
        fd, name = tempfile.mkstemp(dir=root / "incoming", prefix="upload-")
        self._file = os.fdopen(fd, "wb")
        self._temp_path = Path(name)
        self._hash = hashlib.sha256()
        self._size = 0
        self._uncompressed = 0
        self._head = b""
        self._meter: _SizeMeter | None = None
        self._compression = Compression.NONE

    def write(self, chunk: bytes) -> None:
        if not chunk:
            return
        self._file.write(chunk)
        self._hash.update(chunk)
        self._size += len(chunk)
        if self._meter is None:
            self._head += chunk
            if len(self._head) < SNIFF_BYTES:
                return
            self._compression = sniff_compression(self._head)
            self._meter = _meter_for(self._compression)
            chunk, self._head = self._head, b""
        self._uncompressed += self._meter.feed(chunk)
        if self._uncompressed > self._limit:
            raise UploadTooLarge(self._limit)

    def commit(self) -> StoredBlob:
        if self._meter is None:  # fewer than SNIFF_BYTES in the whole upload
            self._compression = sniff_compression(self._head)
            self._meter = _meter_for(self._compression)
            self._uncompressed += self._meter.feed(self._head)
        self._uncompressed += self._meter.finish()
        if self._uncompressed > self._limit:
            raise UploadTooLarge(self._limit)
        self._file.close()
        digest = self._hash.hexdigest()
        final = self._root / digest[:2] / digest[2:4] / digest
        final.parent.mkdir(parents=True, exist_ok=True)
        if final.exists():
            self._temp_path.unlink()
        else:
            os.replace(self._temp_path, final)
        return StoredBlob(digest, final, self._size, self._uncompressed, self._compression)

    def abort(self) -> None:
        self._file.close()
        self._temp_path.unlink(missing_ok=True)
