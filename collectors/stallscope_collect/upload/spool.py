"""The spool: captures compressed to disk, each with a sidecar saying where it goes, until sent."""

from __future__ import annotations

import fcntl
import gzip
import json
import os
import re
import shutil
import tempfile
import time
import uuid
from dataclasses import dataclass
from typing import IO, Any

from stallscope_collect.console import Console
from stallscope_collect.files import read_text, unlink_quietly, write_json
from stallscope_collect.formatting import fmt_bytes

_UPLOAD_KEY = re.compile(r"[0-9A-Za-z_-]{1,128}")
"""What an upload key may look like: it goes into a header, so a hand-edited sidecar cannot break it."""


def new_upload_key() -> str:
    """Random, not derived from the body: two identical captures are still two captures."""
    return uuid.uuid4().hex


@dataclass
class SpoolEntry:
    """A compressed capture waiting to be sent, and the small JSON sidecar that says where to."""

    sidecar_path: str
    body_path: str
    info: dict[str, Any]

    @property
    def label(self) -> str:
        return str(self.info.get("filename"))


class Spool:
    """A directory of `<id>.gz` bodies with `<id>.json` sidecars; a sidecar is written last."""

    ORPHAN_AGE_S = 3600.0

    def __init__(self, path: str) -> None:
        self.path = os.path.abspath(os.path.expanduser(path))

    def ensure(self) -> None:
        os.makedirs(self.path, mode=0o700, exist_ok=True)

    def add(self, source: str, info: dict[str, Any], console: Console) -> SpoolEntry:
        """Stream-compress `source` into the spool (gzip bodies are copied as they are)."""
        self.ensure()
        safe_name = re.sub(r"[^\w.-]", "_", os.path.basename(source))[:80]
        base = f"{time.time_ns()}-{os.getpid()}-{safe_name}"
        body = os.path.join(self.path, base + ".gz")
        sidecar = os.path.join(self.path, base + ".json")
        fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=self.path)
        try:
            with os.fdopen(fd, "wb") as raw, open(source, "rb") as src:
                head = src.read(2)
                src.seek(0)
                if head == b"\x1f\x8b":
                    shutil.copyfileobj(src, raw, 1 << 20)
                else:
                    with gzip.GzipFile(filename="", mode="wb", fileobj=raw, compresslevel=6, mtime=0) as gz:
                        shutil.copyfileobj(src, gz, 1 << 20)
                raw.flush()
                os.fsync(raw.fileno())
            os.replace(tmp, body)
        except BaseException:
            unlink_quietly(tmp)
            raise
        info = dict(info)
        info.update({"version": 1, "source": os.path.abspath(source), "spooled_at_ns": time.time_ns()})
        info["upload_key"] = new_upload_key()
        info.setdefault("attempts", 0)
        write_json(sidecar, info)
        console.info(f"spooled {info['filename']} ({fmt_bytes(os.path.getsize(body))} compressed)")
        return SpoolEntry(sidecar, body, info)

    def entries(self) -> list[SpoolEntry]:
        if not os.path.isdir(self.path):
            return []
        found = []
        for name in sorted(os.listdir(self.path)):
            if not name.endswith(".json") or name.startswith("."):
                continue
            sidecar = os.path.join(self.path, name)
            body = sidecar[: -len(".json")] + ".gz"
            try:
                info = json.loads(read_text(sidecar))
            except (OSError, ValueError):
                continue
            if isinstance(info, dict) and os.path.exists(body):
                found.append(SpoolEntry(sidecar, body, info))
        return found

    def remove(self, entry: SpoolEntry) -> None:
        # Sidecar first: a kill in between leaves an orphan body, which is never sent twice.
        unlink_quietly(entry.sidecar_path)
        unlink_quietly(entry.body_path)

    def update(self, entry: SpoolEntry) -> None:
        write_json(entry.sidecar_path, entry.info)

    def upload_key(self, entry: SpoolEntry) -> str:
        """The entry's idempotency key, which every POST of it carries so that the console can tell
        a repeat (a response lost, a retry, a later flush) from a new capture. Sidecars spooled
        before keys existed get one here, written to the sidecar before it is first used: a key
        that a restart could forget would not stop a duplicate. OSError when it cannot be written."""
        key = entry.info.get("upload_key")
        if isinstance(key, str) and _UPLOAD_KEY.fullmatch(key):
            return key
        fresh = new_upload_key()
        self.update(SpoolEntry(entry.sidecar_path, entry.body_path, {**entry.info, "upload_key": fresh}))
        entry.info["upload_key"] = fresh
        return fresh

    def clean(self) -> None:
        """Drop temporary files and bodies without a sidecar left by a process killed mid-way."""
        if not os.path.isdir(self.path):
            return
        now = time.time()
        for name in os.listdir(self.path):
            path = os.path.join(self.path, name)
            orphan = name.endswith(".gz") and not os.path.exists(path[: -len(".gz")] + ".json")
            if name.startswith(".tmp-") or orphan:
                try:
                    if now - os.path.getmtime(path) > self.ORPHAN_AGE_S:
                        os.unlink(path)
                except OSError:
                    pass

    def lock(self, blocking: bool) -> IO[str] | None:
        """An exclusive lock on the spool for one sender at a time; None when busy (non-blocking)."""
        self.ensure()
        handle = open(os.path.join(self.path, ".lock"), "a")  # noqa: SIM115 - held until the caller closes it
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | (0 if blocking else fcntl.LOCK_NB))
        except OSError:
            handle.close()
            return None
        return handle
