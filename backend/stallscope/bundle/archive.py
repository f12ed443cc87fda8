"""A zip written member by member, each one hashed as it streams past, for the manifest.

Members are streamed (`ZipFile.open(name, "w")`), so a raw capture of gigabytes never sits in memory.
Files that are already compressed (`.gz`, `.zst`, `.png`) are stored rather than deflated again:
deflating gzip costs time and saves nothing.
"""

from __future__ import annotations

import hashlib
import zipfile
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import BinaryIO

_STORED_SUFFIXES = (".gz", ".zst", ".png", ".zip")
_COPY_CHUNK = 1 << 20


@dataclass(frozen=True, slots=True)
class Member:
    """One file of the bundle as the manifest lists it."""

    path: str
    bytes: int
    sha256: str


class BundleArchive:
    """The zip being written; `members` lists what went in, in order."""

    def __init__(self, out: BinaryIO | Path, written_at: datetime) -> None:
        self._date_time = (
            written_at.year,
            written_at.month,
            written_at.day,
            written_at.hour,
            written_at.minute,
            written_at.second,
        )
        self._zip = zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=6)
        self.members: list[Member] = []
        self._paths: set[str] = set()

    def add_bytes(self, path: str, data: bytes) -> Member:
        return self.add_chunks(path, (data,))

    def add_text(self, path: str, text: str) -> Member:
        return self.add_bytes(path, text.encode("utf-8"))

    def add_chunks(self, path: str, chunks: Iterable[bytes]) -> Member:
        """Write a member from a stream of byte chunks, hashing as it goes."""
        if path in self._paths:
            raise ValueError(f"the bundle already has a file named {path}")
        self._paths.add(path)
        digest = hashlib.sha256()
        size = 0
        info = zipfile.ZipInfo(path, date_time=self._date_time)
        info.compress_type = zipfile.ZIP_STORED if path.endswith(_STORED_SUFFIXES) else zipfile.ZIP_DEFLATED
        info.external_attr = 0o644 << 16
        with self._zip.open(info, "w", force_zip64=True) as member:
            for chunk in chunks:
                if not chunk:
                    continue
                digest.update(chunk)
                size += len(chunk)
                member.write(chunk)
        added = Member(path, size, digest.hexdigest())
        self.members.append(added)
        return added

    def add_file(self, path: str, source: BinaryIO) -> Member:
        return self.add_chunks(path, iter(lambda: source.read(_COPY_CHUNK), b""))

    def close(self) -> None:
        self._zip.close()
