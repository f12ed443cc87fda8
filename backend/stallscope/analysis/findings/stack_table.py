"""A digest's stacks in two arrays, and the compact JSON a digest's large tables are kept in.

A deep capture's digest holds tens of thousands of distinct stacks up to 127 frames deep: millions
of frame indexes. As tuples and as JSON numbers they took seconds to build, store and read back
after every parse; in one array they take milliseconds, and the question detectors ask of every
stack ("where is its first frame matching `mutex`?") is a few array operations over all of them.
"""

from __future__ import annotations

import base64
import json
import zlib
from collections.abc import Iterable, Iterator, Sequence
from itertools import pairwise
from typing import Any, overload

import numpy as np
from numpy.typing import NDArray

Int32s = NDArray[np.int32]
Int64s = NDArray[np.int64]
Flags = NDArray[np.bool_]

ZLIB_LEVEL = 1
"""Deep stacks repeat their callers' frames: the fastest level already packs them about tenfold."""


def position(index: int, length: int) -> int:
    """`index` into a sequence of `length` items as a list takes it (from the end when negative)."""
    if index < 0:
        index += length
    if not 0 <= index < length:
        raise IndexError(index)
    return index


class StackTable(Sequence[tuple[int, ...]]):
    """Frame indexes of each stack, root first: stack `i` is `frames[offsets[i]:offsets[i + 1]]`.

    Reads like the list of tuples it stands for; builders that append stacks one by one keep a list
    and pass it to `of`.
    """

    __slots__ = ("frames", "offsets")

    def __init__(self, frames: Int32s, offsets: Int64s) -> None:
        self.frames = frames
        self.offsets = offsets

    @classmethod
    def of(cls, stacks: Sequence[Sequence[int]]) -> StackTable:
        if isinstance(stacks, StackTable):
            return stacks
        lengths = np.fromiter((len(s) for s in stacks), dtype=np.int64, count=len(stacks))
        offsets = np.zeros(len(stacks) + 1, dtype=np.int64)
        np.cumsum(lengths, out=offsets[1:])
        frames = np.fromiter(_chain(stacks), dtype=np.int32, count=int(offsets[-1]))
        return cls(frames, offsets)

    def __len__(self) -> int:
        return len(self.offsets) - 1

    @overload
    def __getitem__(self, index: int) -> tuple[int, ...]: ...

    @overload
    def __getitem__(self, index: slice) -> list[tuple[int, ...]]: ...

    def __getitem__(self, index: int | slice) -> tuple[int, ...] | list[tuple[int, ...]]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        index = position(index, len(self))
        return tuple(self.frames[self.offsets[index] : self.offsets[index + 1]].tolist())

    def __iter__(self) -> Iterator[tuple[int, ...]]:
        flat, offsets = self.frames.tolist(), self.offsets.tolist()
        for start, end in pairwise(offsets):
            yield tuple(flat[start:end])

    def __eq__(self, other: object) -> bool:
        if isinstance(other, StackTable):
            return np.array_equal(self.offsets, other.offsets) and np.array_equal(self.frames, other.frames)
        if isinstance(other, Sequence):
            return len(self) == len(other) and all(a == tuple(b) for a, b in zip(self, other, strict=True))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"StackTable({len(self)} stacks, {len(self.frames)} frames)"

    @property
    def lengths(self) -> Int64s:
        return np.diff(self.offsets)

    def first_hits(self, flagged: Flags) -> Int64s:
        """Per stack, the position (from the root) of its first frame flagged in `flagged` (one flag
        per frame index), -1 where it has none."""
        found = np.full(len(self), -1, dtype=np.int64)
        if not flagged.any() or not len(self.frames):
            return found
        positions = np.flatnonzero(flagged[self.frames])
        if not len(positions):
            return found
        starts, ends = self.offsets[:-1], self.offsets[1:]
        at = np.searchsorted(positions, starts)
        first = positions[np.minimum(at, len(positions) - 1)]
        inside = (at < len(positions)) & (first < ends)
        found[inside] = first[inside] - starts[inside]
        return found

    def leaf_flagged(self, flagged: Flags) -> Flags:
        """Per stack, whether its innermost frame is flagged (False for an empty stack)."""
        ends = self.offsets[1:]
        nonempty = ends > self.offsets[:-1]
        out = np.zeros(len(self), dtype=bool)
        out[nonempty] = flagged[self.frames[ends[nonempty] - 1]]
        return out

    def any_unflagged(self, flagged: Flags) -> Flags:
        """Per stack, whether some frame of it is not flagged."""
        if not len(self.frames):
            return np.zeros(len(self), dtype=bool)
        outside = (~flagged[self.frames]).astype(np.int64)
        counts = np.zeros(len(self.frames) + 1, dtype=np.int64)
        np.cumsum(outside, out=counts[1:])
        unflagged: Flags = counts[self.offsets[1:]] > counts[self.offsets[:-1]]
        return unflagged

    def as_json(self) -> dict[str, Any]:
        return {"lengths": pack_array(self.lengths), "frames": pack_array(self.frames)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> StackTable:
        lengths = unpack_array(data["lengths"]).astype(np.int64)
        offsets = np.zeros(len(lengths) + 1, dtype=np.int64)
        np.cumsum(lengths, out=offsets[1:])
        return cls(unpack_array(data["frames"]).astype(np.int32), offsets)


def _chain(stacks: Iterable[Sequence[int]]) -> Iterator[int]:
    for stack in stacks:
        yield from stack


def pack_array(values: NDArray[Any]) -> list[str]:
    """Integers as [dtype, base64 of their zlib-compressed bytes], in the smallest type that holds
    them."""
    low, high = int(values.min(initial=0)), int(values.max(initial=0))
    if low >= 0:
        bits = next(b for b in (8, 16, 32, 64) if b == 64 or high < 1 << b)
        dtype = f"<u{bits // 8}"
    else:
        bits = next(b for b in (8, 16, 32, 64) if b == 64 or (-(1 << (b - 1)) <= low and high < 1 << (b - 1)))
        dtype = f"<i{bits // 8}"
    raw = np.ascontiguousarray(values, dtype=dtype).tobytes()
    return [dtype, base64.b64encode(zlib.compress(raw, ZLIB_LEVEL)).decode("ascii")]


def unpack_array(packed: list[str]) -> NDArray[Any]:
    dtype, data = packed
    return np.frombuffer(zlib.decompress(base64.b64decode(data)), dtype=np.dtype(dtype))


def pack_rows(rows: list[list[Any]]) -> str:
    """A table of JSON rows as base64 of zlib-compressed JSON: PostgreSQL stores one string in a
    `jsonb` column about ten times faster than the same rows as JSON arrays of values."""
    text = json.dumps(rows, separators=(",", ":"), ensure_ascii=False)
    return base64.b64encode(zlib.compress(text.encode(), ZLIB_LEVEL)).decode("ascii")


def unpack_rows(packed: str) -> list[list[Any]]:
    rows: list[list[Any]] = json.loads(zlib.decompress(base64.b64decode(packed)))
    return rows
