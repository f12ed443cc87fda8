"""The one least-recently-used cache the views keep their trees and answers in."""

from __future__ import annotations

import threading

import pytest

from stallscope.kit.lru import LruCache


def test_a_count_bound_evicts_the_least_recently_used() -> None:
    cache: LruCache[str, int] = LruCache(max_entries=2)
    cache.put("a", 1)
    cache.put("b", 2)
    assert cache.get("a") == 1  # "b" is now the least recently used
    cache.put("c", 3)
    assert "b" not in cache
    assert (cache.get("a"), cache.get("c")) == (1, 3)
    assert len(cache) == 2


def test_putting_a_key_again_replaces_it_and_makes_it_the_most_recent() -> None:
    cache: LruCache[str, int] = LruCache(max_entries=2)
    cache.put("a", 1)
    cache.put("b", 2)
    cache.put("a", 10)
    cache.put("c", 3)
    assert "b" not in cache
    assert cache.get("a") == 10


def test_a_size_bound_sums_the_values_and_evicts_the_oldest_first() -> None:
    cache: LruCache[str, bytes] = LruCache(max_size=10, size=len)
    cache.put("a", b"xxxx")
    cache.put("b", b"xxxx")
    cache.put("c", b"xxxx")  # 12 bytes: "a" leaves
    assert "a" not in cache
    assert "b" in cache
    assert "c" in cache


def test_a_value_larger_than_the_bound_is_kept_alone_by_default() -> None:
    cache: LruCache[str, bytes] = LruCache(max_size=10, size=len)
    cache.put("small", b"xx")
    cache.put("big", b"x" * 50)
    assert "small" not in cache
    assert cache.get("big") == b"x" * 50


def test_a_value_larger_than_the_bound_is_refused_when_asked() -> None:
    cache: LruCache[str, bytes] = LruCache(max_size=10, size=len, keep_oversized=False)
    cache.put("small", b"xx")
    cache.put("big", b"x" * 11)
    assert "big" not in cache
    assert cache.get("small") == b"xx", "what was kept stays"
    cache.put("exact", b"x" * 8)
    assert "exact" in cache
    assert "small" in cache


class Growing:
    """A value whose size changes after it is stored, as a tree that builds an index on first use."""

    def __init__(self, size: int) -> None:
        self.size = size


def test_sizes_are_measured_again_at_each_put() -> None:
    cache: LruCache[str, Growing] = LruCache(max_size=10, size=lambda g: g.size)
    first = Growing(2)
    cache.put("first", first)
    first.size = 9  # grew while cached
    cache.put("second", Growing(2))
    assert "first" not in cache
    assert "second" in cache


def test_both_bounds_hold_together() -> None:
    cache: LruCache[int, bytes] = LruCache(max_entries=3, max_size=100, size=len)
    for key in range(5):
        cache.put(key, b"x")
    assert [key for key in range(5) if key in cache] == [2, 3, 4]


def test_forgetting_one_key_or_the_keys_a_test_accepts() -> None:
    cache: LruCache[str, int] = LruCache(max_entries=10)
    for key in ("1@a", "2@a", "1@a,2@a", "3@b"):
        cache.put(key, 0)
    cache.forget("3@b")
    cache.forget("absent")
    cache.forget_where(lambda key: "1@a" in key.split(","))
    assert [key for key in ("1@a", "2@a", "1@a,2@a", "3@b") if key in cache] == ["2@a"]
    cache.clear()
    assert len(cache) == 0


def test_a_cache_needs_a_bound_and_a_size_to_bound_sizes() -> None:
    with pytest.raises(ValueError, match="needs a bound"):
        LruCache()
    with pytest.raises(ValueError, match="needs the size"):
        LruCache(max_size=10)


def test_threads_putting_and_getting_at_once_keep_the_bound() -> None:
    cache: LruCache[int, bytes] = LruCache(max_size=64, size=len)
    errors: list[BaseException] = []

    def work(offset: int) -> None:
        try:
            for i in range(2000):
                cache.put(offset + i % 50, b"x" * 8)
                cache.get(offset + (i * 7) % 50)
        except BaseException as exc:  # reported by the assertion below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(n * 100,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert len(cache) == 8
