"""A least-recently-used cache, bounded by its number of entries or by the summed size of its values.

The views keep the last few things that are dear to build (call-site trees, weighed views, encoded
answers) in process memory; each such cache is one of these, with the bound its values need. It is
thread-safe: requests are served from several threads.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class LruCache(Generic[K, V]):
    """The least recently used entries leave first once a bound is passed.

    `max_entries` bounds the count. `max_size` bounds the sum of `size(value)` over the entries;
    sizes are measured again at each `put`, because a value may grow after it was stored (a tree
    builds some of its indexes on first use). The entry just put is never evicted to honour
    `max_size`, so one value larger than the whole bound is still kept, alone, unless
    `keep_oversized` is False: such a value is then not stored at all (an answer too big to be worth
    holding should not push every other answer out).
    """

    def __init__(
        self,
        *,
        max_entries: int | None = None,
        max_size: int | None = None,
        size: Callable[[V], int] | None = None,
        keep_oversized: bool = True,
    ) -> None:
        if max_size is not None and size is None:
            raise ValueError("a cache bounded by size needs the size of a value")
        if max_entries is None and max_size is None:
            raise ValueError("a cache needs a bound: max_entries, max_size or both")
        self._max_entries = max_entries
        self._max_size = max_size
        self._size = size
        self._keep_oversized = keep_oversized
        self._lock = threading.Lock()
        self._entries: OrderedDict[K, V] = OrderedDict()

    def get(self, key: K) -> V | None:
        """The value under `key` (now the most recently used), or None."""
        with self._lock:
            found = self._entries.get(key)
            if found is not None:
                self._entries.move_to_end(key)
            return found

    def put(self, key: K, value: V) -> None:
        """Keep `value` under `key` as the most recently used entry, evicting what the bounds say."""
        oversized = self._max_size is not None and self._measure(value) > self._max_size
        if oversized and not self._keep_oversized:
            return
        with self._lock:
            self._entries[key] = value
            self._entries.move_to_end(key)
            if self._max_entries is not None:
                while len(self._entries) > self._max_entries:
                    self._entries.popitem(last=False)
            if self._max_size is not None:
                total = sum(self._measure(v) for v in self._entries.values())
                while total > self._max_size and len(self._entries) > 1:
                    _, dropped = self._entries.popitem(last=False)
                    total -= self._measure(dropped)

    def forget(self, key: K) -> None:
        """Drop `key`'s entry, if there is one."""
        with self._lock:
            self._entries.pop(key, None)

    def forget_where(self, stale: Callable[[K], bool]) -> None:
        """Drop every entry whose key `stale` accepts."""
        with self._lock:
            for key in [k for k in self._entries if stale(k)]:
                del self._entries[key]

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()

    def __len__(self) -> int:
        return len(self._entries)

    def __contains__(self, key: object) -> bool:
        return key in self._entries

    def _measure(self, value: V) -> int:
        assert self._size is not None
        return self._size(value)
