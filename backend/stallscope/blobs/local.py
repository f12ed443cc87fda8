"""Blobs in a local directory: the embedded default, `<data dir>/blobs/ab/cd/<sha256>`.

An upload streams into `incoming/upload-*` and is hard-linked to its address at commit, so of two
uploads of the same bytes at once exactly one creates the file.
"""

from __future__ import annotations

import io
import os
import re
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from stallscope.blobs.metering import UploadMeter
from stallscope.blobs.store import SHA256_NAME, BlobEntry, StoredBlob, blob_key

INCOMING = "incoming"
HEX_PAIR = re.compile(r"[0-9a-f]{2}")


class LocalUpload:
    def __init__(self, store: LocalBlobStore, max_uncompressed_bytes: int) -> None:
        self._store = store
        self._meter = UploadMeter(max_uncompressed_bytes)
        fd, name = tempfile.mkstemp(dir=store.root / INCOMING, prefix="upload-")
        self._file = os.fdopen(fd, "wb")
        self.temp_path = Path(name)

    def write(self, chunk: bytes) -> None:
        if not chunk:
            return
        self._file.write(chunk)
        self._file.flush()  # the temp file's mtime then shows the upload is alive (remove_stale_incoming)
        self._meter.feed(chunk)

    def commit(self) -> StoredBlob:
        measured = self._meter.finish()
        self._file.close()
        final = self._store.path_of(measured.sha256)
        final.parent.mkdir(parents=True, exist_ok=True)
        created = _link_into_place(self.temp_path, final)
        self.temp_path.unlink(missing_ok=True)
        return StoredBlob(
            measured.sha256,
            str(final),
            measured.size_bytes,
            measured.size_uncompressed,
            measured.compression,
            created,
            final.stat().st_mtime_ns,
        )

    def abort(self) -> None:
        self._file.close()
        self.temp_path.unlink(missing_ok=True)


class LocalBlobStore:
    def __init__(self, root: Path) -> None:
        self.root = root

    def __str__(self) -> str:
        return str(self.root)

    def __repr__(self) -> str:
        return f"LocalBlobStore({str(self.root)!r})"

    def prepare(self) -> None:
        (self.root / INCOMING).mkdir(parents=True, exist_ok=True)

    def start_upload(self, max_uncompressed_bytes: int) -> LocalUpload:
        self.prepare()
        return LocalUpload(self, max_uncompressed_bytes)

    def path_of(self, sha256: str) -> Path:
        return self.root / blob_key(sha256)

    def open(self, sha256: str) -> io.BufferedReader:
        return open(self.path_of(sha256), "rb")

    def location(self, sha256: str) -> str:
        return str(self.path_of(sha256))

    def discard_new(self, blob: StoredBlob) -> bool:
        if not blob.created:
            return False
        path = self.path_of(blob.sha256)
        try:
            if path.stat().st_mtime_ns != blob.touched_ns:
                return False
            path.unlink()
        except FileNotFoundError:
            return False
        return True

    def remove_unless_touched(self, sha256: str, since: float) -> bool:
        path = self.path_of(sha256)
        try:
            if path.stat().st_mtime > since:
                return False
            path.unlink()
        except FileNotFoundError:
            return False
        return True

    def stored_blobs(self) -> Iterator[BlobEntry]:
        """Files anywhere else (`incoming/`, stray names) are not listed, so nothing but a blob is
        offered for deletion."""
        for first in _hex_dirs(self.root):
            for second in _hex_dirs(Path(first.path)):
                for entry in _scan(Path(second.path)):
                    name = entry.name
                    if not (
                        SHA256_NAME.fullmatch(name) and name[:2] == first.name and name[2:4] == second.name
                    ):
                        continue
                    try:
                        if not entry.is_file(follow_symlinks=False):
                            continue
                        info = entry.stat(follow_symlinks=False)
                    except FileNotFoundError:
                        continue
                    yield BlobEntry(name, info.st_size, info.st_mtime)

    def remove_stale_incoming(self, older_than_s: float) -> int:
        """A live upload writes at least every few seconds (or the idle timeout drops it), so pick
        `older_than_s` well above `upload_idle_timeout_s`."""
        cutoff_ns = time.time_ns() - int(older_than_s * 1e9)
        removed = 0
        try:
            entries = list(os.scandir(self.root / INCOMING))
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


def _scan(directory: Path) -> list[os.DirEntry[str]]:
    try:
        return sorted(os.scandir(directory), key=lambda e: e.name)
    except (FileNotFoundError, NotADirectoryError):
        return []


def _hex_dirs(directory: Path) -> list[os.DirEntry[str]]:
    return [e for e in _scan(directory) if HEX_PAIR.fullmatch(e.name) and e.is_dir(follow_symlinks=False)]
