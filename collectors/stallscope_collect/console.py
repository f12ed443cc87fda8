"""What the user sees on stderr: messages, warnings, errors and a progress line."""

from __future__ import annotations

import math
import os
import sys
import threading
import time
from typing import IO


class Console:
    """Messages on stderr; a live progress line on a terminal, sparse whole lines otherwise."""

    PLAIN_EVERY_S = 10.0

    def __init__(self, quiet: bool = False, stream: IO[str] | None = None) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.quiet = quiet
        isatty = getattr(self.stream, "isatty", None)
        self.tty = bool(isatty()) if callable(isatty) else False
        self._status_shown = False
        self._last_plain = -math.inf
        self._lock = threading.Lock()

    def _write_line(self, text: str) -> None:
        with self._lock:
            if self._status_shown:
                self.stream.write("\r\x1b[K")
                self._status_shown = False
            self.stream.write(text + "\n")
            self.stream.flush()

    def info(self, text: str) -> None:
        if not self.quiet:
            self._write_line(text)

    def warn(self, text: str) -> None:
        self._write_line("warning: " + text)

    def error(self, text: str) -> None:
        self._write_line("error: " + text)

    def status(self, text: str, final: bool = False) -> None:
        """Progress: rewritten in place on a terminal; one line every few seconds on a pipe or log."""
        if self.quiet:
            return
        with self._lock:
            if self.tty:
                self.stream.write("\r\x1b[K" + text)
                self._status_shown = True
                if final:
                    self.stream.write("\n")
                    self._status_shown = False
                self.stream.flush()
                return
            now = time.monotonic()
            if final or now - self._last_plain >= self.PLAIN_EVERY_S:
                self._last_plain = now
                self.stream.write(text + "\n")
                self.stream.flush()

    def reset_pace(self) -> None:
        self._last_plain = -math.inf


def program_name() -> str:
    """The program as the user ran it, for messages: the zipapp's file name, or `stallscope-collect`
    for `python3 -m stallscope_collect` and the command `pip install` makes."""
    name = os.path.basename(sys.argv[0])
    return "stallscope-collect" if name in ("", "__main__.py") else name
