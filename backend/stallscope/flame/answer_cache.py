"""The last answers of the flame graph and the diff, kept encoded, bounded by their bytes.

A repeated request (Back and Forward, a shared link opened twice, a second browser, a redraw) is then
one dictionary lookup: no pruning, no encoding. Encoded answers are a fraction of the memory their
trees of dicts would take, so the cache holds several. Keys carry each capture's `parsed_at`, so a
re-parsed capture never gets an old answer.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

MAX_BYTES = 24 * 1024 * 1024
"""A few of the largest answers (50,000 nodes of long C++ or JIT names: ~9 MB each)."""


class AnswerCache:
    def __init__(self, max_bytes: int = MAX_BYTES) -> None:
        self._max_bytes = max_bytes
        self._lock = threading.Lock()
        self._answers: OrderedDict[str, bytes] = OrderedDict()
        self._bytes = 0

    def get(self, key: str) -> bytes | None:
        with self._lock:
            found = self._answers.get(key)
            if found is not None:
                self._answers.move_to_end(key)
            return found

    def put(self, key: str, body: bytes) -> None:
        if len(body) > self._max_bytes:
            return
        with self._lock:
            previous = self._answers.pop(key, None)
            self._bytes -= len(previous) if previous is not None else 0
            self._answers[key] = body
            self._bytes += len(body)
            while self._bytes > self._max_bytes:
                _, dropped = self._answers.popitem(last=False)
                self._bytes -= len(dropped)

    def clear(self) -> None:
        with self._lock:
            self._answers.clear()
            self._bytes = 0
