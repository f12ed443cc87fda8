"""A process-wide cache of stacks and frames, which never change once written.

Stacks and frames are shared by every capture and only ever inserted, so what one query fetched is
valid for every later one: zooms, filters and other captures of the same program reuse it instead
of re-reading thousands of frame arrays.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable

from sqlalchemy.orm import Session

from stallscope.analysis.flame import FrameInfo
from stallscope.flame import repository

MAX_CACHED_STACKS = 1_000_000
"""Roughly 0.5 GB at the deepest (127-frame) stacks; past it the cache starts over."""


class StackCatalog:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._stacks: dict[int, list[int]] = {}
        self._frames: dict[int, FrameInfo] = {}

    def resolve(
        self, session: Session, stack_ids: Iterable[int]
    ) -> tuple[dict[int, list[int]], dict[int, FrameInfo]]:
        """Frame ids of each stack and the frames they name, fetching only what is not cached.

        One lock around the lot: concurrent first views of different captures wait for each other
        briefly, which is simpler to trust than partial lookups racing a cache reset.
        """
        wanted = set(stack_ids)
        with self._lock:
            missing = wanted.difference(self._stacks)
            if len(self._stacks) + len(missing) > MAX_CACHED_STACKS:
                self._stacks.clear()
                self._frames.clear()
                missing = wanted
            if missing:
                self._stacks.update(repository.stacks_by_id(session, missing))
                new_frames = {f for s in missing for f in self._stacks[s]}.difference(self._frames)
                if new_frames:
                    self._frames.update(repository.frames_by_id(session, new_frames))
            stacks = {s: self._stacks[s] for s in wanted}
            frames = {f: self._frames[f] for ids in stacks.values() for f in ids}
        return stacks, frames


catalog = StackCatalog()
