"""The blob store's contract: raw uploads kept byte for byte under their SHA-256.

Every upload is kept as it came (compressed or not), so a parser bug or a new parser version can
always re-read the original. Two backends keep that promise: a local directory (`blobs/local.py`,
the embedded default) and S3-compatible object storage (`blobs/s3.py`), so an API and workers on
different hosts share nothing but the store.

Blobs are content-addressed and two captures may share one. Removing one races with an upload of
the same bytes that found it stored: such an upload "touches" the blob (moves its modification time
on) before recording its capture, and a removal spares a blob touched after the moment it was
decided on (`remove_unless_touched`).
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Protocol

from stallscope.kit.compression import Compression

SHA256_NAME = re.compile(r"[0-9a-f]{64}")


@dataclass(frozen=True, slots=True)
class StoredBlob:
    sha256: str
    location: str
    """Where the store keeps it, for people reading the capture row (a path, an s3:// URL)."""
    size_bytes: int
    size_uncompressed: int
    compression: Compression
    created: bool = True
    """Whether this upload created the blob; False when the same bytes were stored already."""
    touched_ns: int = 0
    """When the commit found or made the blob: the local file's mtime, which later uploads of the
    same bytes move on (`discard_new` compares it); in object storage the commit's time."""
    upload_id: str | None = None
    """The object store's mark of the upload that wrote or last touched the blob (see `blobs/s3.py`)."""


class BlobStoreUnavailable(OSError):
    """The store could not be reached or refused the request; the message names the store."""


@dataclass(frozen=True, slots=True)
class BlobEntry:
    """A stored blob as listed by the store, for a sweep that compares blobs with the database."""

    sha256: str
    size_bytes: int
    mtime: float
    """Seconds since the epoch; moved on each time an upload finds the blob again."""


class BlobUpload(Protocol):
    """One upload on its way in: chunks in order, then `commit` or `abort`.

    Blocking work (network, disk, hashing, decompression): call it from a worker thread, never the
    event loop. `write` raises UploadTooLarge or CorruptCompression (`blobs/metering.py`) as soon as
    the bytes so far show it; the caller then aborts.
    """

    def write(self, chunk: bytes) -> None: ...

    def commit(self) -> StoredBlob:
        """Check the upload's end, then give it its content address."""
        ...

    def abort(self) -> None:
        """Drop what was written; safe to call after a failed write or commit."""
        ...


class BlobStore(Protocol):
    def prepare(self) -> None:
        """Make the store usable (the directory, the bucket); called once when a process starts."""
        ...

    def start_upload(self, max_uncompressed_bytes: int) -> BlobUpload: ...

    def open(self, sha256: str) -> io.BufferedReader:
        """The blob's bytes as stored, read as a stream (bounded memory however large it is)."""
        ...

    def location(self, sha256: str) -> str: ...

    def discard_new(self, blob: StoredBlob) -> bool:
        """Remove a blob this upload created, after recording it failed; True when it was removed.

        Only a blob `commit` created, and only while no later upload of the same bytes has touched it.
        """
        ...

    def remove_unless_touched(self, sha256: str, since: float) -> bool:
        """Remove the blob unless an upload touched it after `since` (epoch seconds); True when removed."""
        ...

    def stored_blobs(self) -> Iterator[BlobEntry]:
        """Every blob at its content address; anything else the store holds is not listed."""
        ...

    def remove_stale_incoming(self, older_than_s: float) -> int:
        """Delete what uploads that died midway left behind, untouched for `older_than_s`; how many."""
        ...


def blob_key(sha256: str) -> str:
    """The blob's address below the store's root: two levels of fan-out, then the digest."""
    return f"{sha256[:2]}/{sha256[2:4]}/{sha256}"
