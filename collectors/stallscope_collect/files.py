"""Reading the host's files (and commands' output), writing files durably, where files go."""

from __future__ import annotations

import contextlib
import json
import os
import shlex
import subprocess
import tempfile
from typing import Any, Sequence


def read_text(path: str, limit: int = 4 << 20) -> str:
    # Small reads: sysctl files refuse a single read of 4 MiB or more (ENOMEM from the kernel).
    chunks: list[bytes] = []
    size = 0
    with open(path, "rb", buffering=0) as f:
        while size < limit:
            chunk = f.read(min(65536, limit - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    return b"".join(chunks).decode("utf-8", "replace")


def read_proc(path: str) -> bytes:
    """A whole /proc file with os-level reads: several times cheaper than open() for tiny files."""
    fd = os.open(path, os.O_RDONLY)
    try:
        chunks: list[bytes] = []
        while True:
            chunk = os.read(fd, 65536)
            if not chunk:
                return b"".join(chunks)
            chunks.append(chunk)
    finally:
        os.close(fd)


def run_text(cmd: Sequence[str], timeout: float = 15.0) -> str:
    proc = subprocess.run(list(cmd), stdin=subprocess.DEVNULL, capture_output=True, timeout=timeout)
    if proc.returncode != 0:
        raise RuntimeError(
            f"`{shlex.join(cmd)}` exited with {proc.returncode}: "
            + proc.stderr.decode("utf-8", "replace").strip()[:500]
        )
    return proc.stdout.decode("utf-8", "replace")


def atomic_write(path: str, data: bytes) -> None:
    """Write to a temporary file beside `path`, fsync, then rename: readers never see half a file."""
    directory = os.path.dirname(path) or "."
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=directory)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        unlink_quietly(tmp)
        raise
    _fsync_dir(directory)


def write_json(path: str, obj: Any) -> None:
    atomic_write(path, (json.dumps(obj, indent=1, sort_keys=False) + "\n").encode())


def _fsync_dir(directory: str) -> None:
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def unlink_quietly(path: str) -> None:
    """Remove a file that may already be gone."""
    with contextlib.suppress(OSError):
        os.unlink(path)


def data_home() -> str:
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return os.path.join(base, "stallscope-collect")


def default_spool() -> str:
    return os.path.join(data_home(), "spool")


def free_bytes(path: str) -> int:
    st = os.statvfs(path)
    return st.f_bavail * st.f_frsize


def existing_parent(path: str) -> str:
    path = os.path.abspath(path)
    while not os.path.exists(path):
        parent = os.path.dirname(path)
        if parent == path:
            break
        path = parent
    return path


def size_or_zero(path: str) -> int:
    """A file's size, or 0 while it does not exist (yet, or any more)."""
    try:
        return os.path.getsize(path)
    except OSError:
        return 0
