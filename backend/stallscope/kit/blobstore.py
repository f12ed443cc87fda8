"""Content-addressed storage for raw uploads, written before anything parses them.

Every upload is kept byte for byte (compressed as it came) under its SHA-256, so a parser bug or a
new parser version can always re-read the original. While the bytes stream in we also measure their
decompressed size, which is how zip bombs and oversized captures are refused without ever holding
the decompressed data. A periodic clean-up finds what uploads left behind with `remove_stale_incoming`
and `stored_blobs`.
"""

from __future__ import annotations

import hashlib
import os
import re
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from stallscope.kit.compression import Compression, sniff_compression, stream_format
from stallscope.kit.stream_decoder import CorruptCompression, StreamDecoder

__all__ = [
    "BlobFile",
    "BlobWriter",
    "CorruptCompression",
    "StoredBlob",
    "UploadTooLarge",
    "discard_new_blob",
    "remove_stale_incoming",
    "stored_blobs",
]

SNIFF_BYTES = 4
DECOMPRESS_STEP = 1 << 20
INCOMING = "incoming"
SHA256_NAME = re.compile(r"[0-9a-f]{64}")
HEX_PAIR = re.compile(r"[0-9a-f]{2}")


class UploadTooLarge(Exception):
    """The upload is over the configured limit once decompressed."""

    def __init__(self, limit_bytes: int) -> None:
        super().__init__(
            f"the capture is larger than the server's limit of {limit_bytes:,} bytes after "
            "decompression; raise STALLSCOPE_MAX_UPLOAD_BYTES or split the capture"
        )
        self.limit_bytes = limit_bytes


@dataclass(frozen=True, slots=True)
class StoredBlob:
    sha256: str
    path: Path
    size_bytes: int
    size_uncompressed: int
    compression: Compression
    created: bool = True
    """Whether this upload created the file; False when the same bytes were stored already."""
    mtime_ns: int = 0
    """The file's mtime right after the commit: later uploads of the same bytes move it on."""


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


class BlobWriter:
    """Receives an upload chunk by chunk; `commit` moves it to its content address.

    Blocking work (disk, hashing, decompression): call it from a worker thread, never the event loop.
    """

    def __init__(self, root: Path, max_uncompressed_bytes: int) -> None:
        self._root = root
        self._limit = max_uncompressed_bytes
        (root / INCOMING).mkdir(parents=True, exist_ok=True)
        fd, name = tempfile.mkstemp(dir=root / INCOMING, prefix="upload-")
        self._file = os.fdopen(fd, "wb")
        self._temp_path = Path(name)
        self._hash = hashlib.sha256()
        self._size = 0
        self._uncompressed = 0
        self._head = b""
        self._meter: _SizeMeter | None = None
        self._compression = Compression.NONE

    @property
    def temp_path(self) -> Path:
        return self._temp_path

    def write(self, chunk: bytes) -> None:
        if not chunk:
            return
        self._file.write(chunk)
        self._file.flush()  # the temp file's mtime then shows the upload is alive (see remove_stale_incoming)
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

    def commit(self) -> StoredBlob:
        """Check the upload's end, then move it to its address; tells whether it created the file."""
        if self._meter is None:  # fewer than SNIFF_BYTES in the whole upload
            self._compression = sniff_compression(self._head)
            self._meter = _meter_for(self._compression)
            self._uncompressed += self._meter.feed(self._head, self._limit)
        self._uncompressed += self._meter.finish(self._limit - self._uncompressed)
        if self._uncompressed > self._limit:
            raise UploadTooLarge(self._limit)
        self._file.close()
        digest = self._hash.hexdigest()
        final = self._root / digest[:2] / digest[2:4] / digest
        final.parent.mkdir(parents=True, exist_ok=True)
        created = _link_into_place(self._temp_path, final)
        self._temp_path.unlink(missing_ok=True)
        mtime_ns = final.stat().st_mtime_ns
        return StoredBlob(digest, final, self._size, self._uncompressed, self._compression, created, mtime_ns)

    def abort(self) -> None:
        self._file.close()
        self._temp_path.unlink(missing_ok=True)


def _link_into_place(temp: Path, final: Path) -> bool:
    """Give the upload its address; True when this call created the file.

    A hard link fails when the address is taken, so of two uploads of the same bytes at once exactly
    one creates it. Finding it, we move its mtime on: a clean-up that spares recently touched blobs
    then never removes one an upload is about to record.
    """
    for _ in range(3):
        try:
            os.link(temp, final)
        except FileExistsError:
            try:
                _touch(final)
            except FileNotFoundError:
                continue  # removed in between: try to create it again
            return False
        except OSError:  # a file system without hard links
            if final.exists():
                _touch(final)
                return False
            os.replace(temp, final)
        return True
    raise OSError(f"{final} keeps appearing and disappearing while the upload is stored")


def _touch(path: Path) -> None:
    """Move the mtime on, strictly: file times tick in milliseconds, two commits may share one."""
    before = path.stat().st_mtime_ns
    now = time.time_ns()
    os.utime(path, ns=(now, max(now, before + 1)))


def discard_new_blob(blob: StoredBlob) -> bool:
    """Remove a blob this upload created, after recording it failed; True when it was removed.

    Only a blob `commit` created, and only while no later upload of the same bytes has found it
    (that one moved the mtime on, and may be recording it now).
    """
    if not blob.created:
        return False
    try:
        if blob.path.stat().st_mtime_ns != blob.mtime_ns:
            return False
        blob.path.unlink()
    except FileNotFoundError:
        return False
    return True


def remove_stale_incoming(root: Path, older_than_s: float) -> int:
    """Delete upload temp files untouched for `older_than_s`; returns how many.

    They are what uploads leave behind when the process dies mid-upload (a live one writes at least
    every few seconds, or the idle timeout drops it), so pick `older_than_s` well above
    `upload_idle_timeout_s`.
    """
    cutoff_ns = time.time_ns() - int(older_than_s * 1e9)
    removed = 0
    try:
        entries = list(os.scandir(root / INCOMING))
    except FileNotFoundError:
        return 0
    for entry in entries:
        if not entry.name.startswith("upload-"):
            continue
        try:
            if (
                entry.is_file(follow_symlinks=False)
                and entry.stat(follow_symlinks=False).st_mtime_ns < cutoff_ns
            ):
                os.unlink(entry.path)
                removed += 1
        except FileNotFoundError:
            continue  # gone meanwhile: committed or aborted
    return removed


@dataclass(frozen=True, slots=True)
class BlobFile:
    """A stored blob as found on disk."""

    sha256: str
    path: Path
    size_bytes: int
    mtime: float
    """Seconds since the epoch; `commit` moves it on each time an upload finds the blob again."""


def stored_blobs(root: Path) -> Iterator[BlobFile]:
    """Every blob at its content address, for a clean-up that compares them with the database.

    Files anywhere else (`incoming/`, stray names) are not listed, so nothing but a blob is offered
    for deletion.
    """
    for first in _hex_dirs(root):
        for second in _hex_dirs(Path(first.path)):
            for entry in _scan(Path(second.path)):
                name = entry.name
                if not (SHA256_NAME.fullmatch(name) and name[:2] == first.name and name[2:4] == second.name):
                    continue
                try:
                    if not entry.is_file(follow_symlinks=False):
                        continue
                    info = entry.stat(follow_symlinks=False)
                except FileNotFoundError:
                    continue
                yield BlobFile(name, Path(entry.path), info.st_size, info.st_mtime)


def _scan(directory: Path) -> list[os.DirEntry[str]]:
    try:
        return sorted(os.scandir(directory), key=lambda e: e.name)
    except (FileNotFoundError, NotADirectoryError):
        return []


def _hex_dirs(directory: Path) -> list[os.DirEntry[str]]:
    return [e for e in _scan(directory) if HEX_PAIR.fullmatch(e.name) and e.is_dir(follow_symlinks=False)]
