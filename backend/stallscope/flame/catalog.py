"""A process-wide cache of frame names and kinds, which never change once written.

Frames are shared by every capture and only ever inserted, so what one view fetched is valid for
every later one: zooms, filters and other captures of the same program reuse it. A view names only
the nodes it sends (tens of thousands at most), so the cache holds what people looked at, not every
frame of every capture.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Mapping

from sqlalchemy.orm import Session

from stallscope.analysis.flame import FrameInfo
from stallscope.flame import repository

MAX_CACHED_FRAMES = 1_000_000
"""About 200 MB at the longest C++ names; past it the cache starts over."""
MAX_CACHED_STACKS = 50_000
"""Stacks resolved one by one (threads, findings, events): few per view. Flame graphs and diffs
never come here, their call-site trees hold the stacks' shapes."""


class FrameCatalog:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._frames: dict[int, FrameInfo] = {}
        self._stacks: dict[int, list[int]] = {}

    def frames(self, session: Session, frame_ids: Iterable[int]) -> dict[int, FrameInfo]:
        """Name and kind of each frame id, fetching only what is not cached."""
        wanted = set(frame_ids)
        with self._lock:
            missing = wanted.difference(self._frames)
            if len(self._frames) + len(missing) > MAX_CACHED_FRAMES:
                self._frames.clear()
                missing = wanted
        fetched = repository.frames_by_id(session, missing) if missing else {}
        with self._lock:
            self._frames.update(fetched)
            return {f: self._frames.get(f) or fetched[f] for f in wanted}

    def resolve(
        self, session: Session, stack_ids: Iterable[int]
    ) -> tuple[dict[int, list[int]], dict[int, FrameInfo]]:
        """Frame ids of each stack (root first) and the frames they name."""
        wanted = set(stack_ids)
        with self._lock:
            missing = wanted.difference(self._stacks)
            if len(self._stacks) + len(missing) > MAX_CACHED_STACKS:
                self._stacks.clear()
                missing = wanted
        fetched = repository.stacks_by_id(session, missing) if missing else {}
        with self._lock:
            self._stacks.update(fetched)
            stacks = {s: self._stacks[s] if s in self._stacks else fetched[s] for s in wanted}
        return stacks, self.frames(session, {f for ids in stacks.values() for f in ids})

    def clear(self) -> None:
        with self._lock:
            self._frames.clear()
            self._stacks.clear()

    def lookup(self, session: Session) -> Callable[[Iterable[int]], Mapping[int, FrameInfo]]:
        """`frames` bound to a session: what a tree's namer asks for names with."""
        return lambda frame_ids: self.frames(session, frame_ids)


catalog = FrameCatalog()
