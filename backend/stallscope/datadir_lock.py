"""One console per data directory: a second `serve` on the same directory refuses to start.

Two consoles on one directory would run two workers against one embedded database and sweep each
other's uploads as orphans. The lock is an `flock` on a file in the directory, so the kernel drops
it the moment the holder dies, however it dies: a console killed with -9 never leaves a stale lock.
"""

from __future__ import annotations

import fcntl
import os
import time
from pathlib import Path
from typing import IO

LOCK_NAME = "console.lock"


class DataDirInUse(Exception):
    """Another live console holds the data directory."""


class DataDirLock:
    """Held from `acquire` until the process exits (or `release`)."""

    def __init__(self, data_dir: Path) -> None:
        self.path = data_dir / LOCK_NAME
        self._file: IO[str] | None = None

    def acquire(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        handle = open(self.path, "a+")  # noqa: SIM115 - held open for the console's lifetime
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.seek(0)
            holder = handle.read().strip() or "unknown"
            handle.close()
            raise DataDirInUse(
                f"another Stallscope console ({holder}) is using {self.path.parent}; stop it first, "
                "or give this one its own directory with --data-dir or STALLSCOPE_DATA_DIR"
            ) from None
        handle.seek(0)
        handle.truncate()
        handle.write(f"pid {os.getpid()}, started {time.strftime('%Y-%m-%d %H:%M:%S %Z')}\n")
        handle.flush()
        self._file = handle

    def release(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None
