"""The last answers of the flame graph and the diff, kept encoded, bounded by their bytes.

A repeated request (Back and Forward, a shared link opened twice, a second browser, a redraw) is then
one dictionary lookup: no pruning, no encoding. Encoded answers are a fraction of the memory their
trees of dicts would take, so the cache holds several. Keys carry each capture's `parsed_at`, so a
re-parsed capture never gets an old answer.
"""

from __future__ import annotations

from stallscope.kit.lru import LruCache

MAX_BYTES = 24 * 1024 * 1024
"""A few of the largest answers (50,000 nodes of long C++ or JIT names: ~9 MB each)."""


def answer_cache(max_bytes: int = MAX_BYTES) -> LruCache[str, bytes]:
    """Answers by request key. One larger than the whole bound is not kept: it would evict every
    other answer to be asked for again, perhaps, once."""
    return LruCache(max_size=max_bytes, size=len, keep_oversized=False)
