"""Global frame and stack ids, assigned in batches so a capture's distinct stacks cost few round trips.

Frames and stacks are shared by every capture (a diff between two hosts compares the same ids). The
upserts run on their own autocommit connection, sorted by digest, so concurrent parses never hold
each other's uncommitted keys and cannot deadlock.

Memory stays bounded whatever the capture holds. The caches from frame and stack objects to ids are
emptied when full: a stack seen again after that is looked up in the database, once per batch. What
is kept for every distinct stack of the capture is its id, up to `max_distinct_stacks`; past that a
new stack is stored as the one `[stack limit reached]` stack, so its samples still count. A stack
deeper than `max_stack_depth` is cut to its leaf side under a frame naming how many frames were cut,
as perf cuts call chains past its own limit.
"""

from __future__ import annotations

import hashlib
from array import array
from collections.abc import Iterable
from typing import Any

import psycopg

from stallscope.ingest.limits import CaptureLimits, Cut
from stallscope.ingest.model import Frame, FrameKind, Sample, Stack, TimedEvent

DIGEST_BYTES = 16
MAX_CACHED_STACKS = 200_000
"""Stack objects whose ids are remembered (kept alive meanwhile, since they are keyed by identity)."""
MAX_CACHED_STACK_FRAMES = 4_000_000
"""Frames in the remembered stack objects: a few very deep stacks empty the cache as many shallow ones do."""
MAX_CACHED_FRAMES = 200_000
"""Frame objects whose ids are remembered."""
LIMIT_STACK: Stack = (Frame("[stack limit reached]", FrameKind.UNKNOWN),)
"""What a stack past `max_distinct_stacks` is stored as: its time counts, under one visible frame."""


def cut_marker(frames_cut: int) -> Frame:
    """The frame that stands for the caller side of a stack cut at `max_stack_depth`."""
    return Frame(f"[{frames_cut:,} frames cut]", FrameKind.UNKNOWN)


def frame_digest(frame: Frame) -> bytes:
    return hashlib.blake2b(
        f"{frame.kind.value}\0{frame.name}".encode("utf-8", "surrogateescape"), digest_size=DIGEST_BYTES
    ).digest()


def stack_digest(frame_ids: list[int]) -> bytes:
    return hashlib.blake2b(array("i", frame_ids).tobytes(), digest_size=DIGEST_BYTES).digest()


def db_text(value: str) -> str:
    """PostgreSQL text cannot hold NUL or lone surrogates; keep everything else as it came."""
    if "\0" in value:
        value = value.replace("\0", "\\0")
    return value.encode("utf-8", "backslashreplace").decode("utf-8")


class StackDictionary:
    def __init__(
        self, conn: psycopg.Connection[tuple[Any, ...]], limits: CaptureLimits | None = None
    ) -> None:
        limits = limits or CaptureLimits.from_settings()
        self._conn = conn
        self.max_stacks = limits.distinct_stacks
        self.max_depth = limits.stack_depth
        self._frame_ids: dict[Frame, int] = {}
        # The same ids by frame object: parsers hand out one object per distinct frame, and hashing
        # a frame by value runs Python code (a dataclass's and an enum's `__hash__`), a microsecond
        # a frame, which on a deep capture cost more than the parse itself. Objects are kept alive
        # while they are keys here, so their ids stay theirs.
        self._ids_by_object: dict[int, int] = {}
        self._objects: list[Frame] = []
        # Keyed by object identity: parsers mostly hand out one tuple per distinct stack, and hashing
        # a 100-frame tuple of frames on every sample would cost more than the COPY itself. A stack
        # that comes back as a new tuple costs a look-up by digest, never a second id.
        self._stack_ids: dict[int, int] = {}
        self._alive: list[Stack] = []
        self._alive_frames = 0
        self._distinct: set[int] = set()
        self.limited_id: int | None = None
        """The id of `LIMIT_STACK`, once a stack was stored as it."""
        self.cut_ids: set[int] = set()
        """Stacks stored cut at `max_depth` (distinct stacks of the capture, so bounded as they are)."""
        self.most_frames_cut = 0
        self.limited = Cut()
        """Records whose stack was stored as `LIMIT_STACK`."""
        self.depth_cut = Cut()
        """Records whose stack was cut at `max_depth`."""

    def __len__(self) -> int:
        return len(self._distinct)

    def id_of(self, stack: Stack) -> int:
        return self._stack_ids[id(stack)]

    def resolve(self, stacks: Iterable[Stack]) -> None:
        """Give every stack in `stacks` an id, inserting the frames and stacks the database lacks.

        Pass every stack `id_of` will be asked about: the caches may be emptied here first.
        """
        if len(self._stack_ids) >= MAX_CACHED_STACKS or self._alive_frames >= MAX_CACHED_STACK_FRAMES:
            self._stack_ids.clear()
            self._alive.clear()
            self._alive_frames = 0
        if len(self._frame_ids) >= MAX_CACHED_FRAMES or len(self._objects) >= MAX_CACHED_FRAMES:
            self._frame_ids.clear()
            self._ids_by_object.clear()
            self._objects.clear()
        cached = self._stack_ids
        new_stacks = list({id(s): s for s in stacks if id(s) not in cached}.values())
        if not new_stacks:
            return
        bodies = [self._within_depth(stack) for stack in new_stacks]
        room = self.max_stacks - len(self._distinct)
        ids = self._store(bodies) if len(bodies) <= room else self._store_within_limit(bodies, room)
        for stack, body, stack_id in zip(new_stacks, bodies, ids, strict=True):
            if body is not stack and stack_id != self.limited_id:
                self.cut_ids.add(stack_id)
                self.most_frames_cut = max(self.most_frames_cut, len(stack) - self.max_depth)
            cached[id(stack)] = stack_id
            self._alive.append(stack)
            self._alive_frames += len(stack)

    @property
    def cutting(self) -> bool:
        """Whether a bound has changed any stack so far."""
        return self.limited_id is not None or bool(self.cut_ids)

    def count_cuts(self, records: Iterable[Sample | TimedEvent]) -> None:
        """Count the records whose stack a bound changed (a pass over a batch: only once one has)."""
        limited_id, cut_ids, ids = self.limited_id, self.cut_ids, self._stack_ids
        for record in records:
            stack_id = ids[id(record.stack)]
            if stack_id == limited_id:
                self.limited.add(record.line)
            elif stack_id in cut_ids:
                self.depth_cut.add(record.line)

    def _within_depth(self, stack: Stack) -> Stack:
        """The stack as stored: itself, or its `max_depth` leaf-side frames under a marker."""
        excess = len(stack) - self.max_depth
        if excess <= 0:
            return stack
        return (cut_marker(excess), *stack[excess:])

    def _store(self, bodies: list[Stack]) -> list[int]:
        """Ids of `bodies`, all of them stacks of this capture from now on."""
        self._learn_frames(bodies, insert=True)
        id_of = self._ids_by_object.__getitem__
        frames_of: dict[bytes, list[int]] = {}
        digests = []
        for body in bodies:
            ids = list(map(id_of, map(id, body)))
            digest = stack_digest(ids)
            digests.append(digest)
            frames_of.setdefault(digest, ids)  # equal stacks that are distinct objects share one
        stack_ids = self._insert_stacks(frames_of)
        result = [stack_ids[d] for d in digests]
        self._distinct.update(result)
        return result

    def _learn_frames(self, bodies: list[Stack], insert: bool) -> None:
        """Know the id of every frame object in `bodies` (by object, see `__init__`), looking frames
        up by value first and in the database then; frames it lacks are inserted only if `insert`.

        Without `insert`, a frame the database has never held stays unknown (`_held_by_capture`).
        """
        by_object = self._ids_by_object
        objects = {id(frame): frame for body in bodies for frame in body if id(frame) not in by_object}
        if not objects:
            return
        frame_ids = self._frame_ids
        new_frames = {frame for frame in objects.values() if frame not in frame_ids}
        if new_frames:
            self._resolve_frames(new_frames, insert)
        for key, frame in objects.items():
            frame_id = frame_ids.get(frame)
            if frame_id is not None:
                by_object[key] = frame_id
                self._objects.append(frame)

    def _store_within_limit(self, bodies: list[Stack], room: int) -> list[int]:
        """Like `_store`, admitting at most `room` stacks new to the capture; the rest get `LIMIT_STACK`.

        Nothing is inserted for a stack that is not admitted, so a capture of endless distinct stacks
        adds nothing to the shared tables past its limit.
        """
        result = self._held_by_capture(bodies)
        admitted: dict[Stack, list[int]] = {}  # equal content admitted once, whatever the objects
        limited: list[int] = []
        for index, body in enumerate(bodies):
            if index in result:
                continue
            if body in admitted:
                admitted[body].append(index)
            elif len(admitted) < room:
                admitted[body] = [index]
            else:
                limited.append(index)
        if admitted:
            for stack_id, indexes in zip(self._store(list(admitted)), admitted.values(), strict=True):
                result.update(dict.fromkeys(indexes, stack_id))
        if limited:
            if self.limited_id is None:
                self.limited_id = self._store([LIMIT_STACK])[0]
            result.update(dict.fromkeys(limited, self.limited_id))
        return [result[index] for index in range(len(bodies))]

    def _held_by_capture(self, bodies: list[Stack]) -> dict[int, int]:
        """Ids of the `bodies` this capture already holds, by position; looks up, inserts nothing."""
        self._learn_frames(bodies, insert=False)
        id_of = self._ids_by_object.__getitem__
        positions: dict[bytes, list[int]] = {}
        for index, body in enumerate(bodies):
            try:
                ids = list(map(id_of, map(id, body)))
            except KeyError:  # a frame the database has never held: no stored stack has it
                continue
            positions.setdefault(stack_digest(ids), []).append(index)
        if not positions:
            return {}
        rows = self._conn.execute(
            "SELECT digest, id FROM stacks WHERE digest = ANY(%s)", (sorted(positions),)
        ).fetchall()
        held: dict[int, int] = {}
        for digest, stack_id in rows:
            if stack_id in self._distinct:
                held.update(dict.fromkeys(positions[bytes(digest)], stack_id))
        return held

    def _insert_stacks(self, frames_of: dict[bytes, list[int]]) -> dict[bytes, int]:
        digests = sorted(frames_of)
        with self._conn.cursor() as cur:
            cur.execute(
                "INSERT INTO stacks (digest, frame_ids) "
                "SELECT d, string_to_array(f, ',')::int[] FROM unnest(%s::bytea[], %s::text[]) AS t(d, f) "
                "ON CONFLICT (digest) DO NOTHING",
                (digests, [",".join(map(str, frames_of[d])) for d in digests]),
            )
            cur.execute("SELECT digest, id FROM stacks WHERE digest = ANY(%s)", (digests,))
            return {bytes(digest): stack_id for digest, stack_id in cur.fetchall()}

    def _resolve_frames(self, frames: set[Frame], insert: bool) -> None:
        """Learn the ids of `frames`, inserting those the database lacks only if `insert`."""
        by_digest = {frame_digest(f): f for f in frames}
        digests = sorted(by_digest)
        with self._conn.cursor() as cur:
            if insert:
                cur.execute(
                    "INSERT INTO frames (digest, name, kind) "
                    "SELECT * FROM unnest(%s::bytea[], %s::text[], %s::text[]) "
                    "ON CONFLICT (digest) DO NOTHING",
                    (
                        digests,
                        [db_text(by_digest[d].name) for d in digests],
                        [by_digest[d].kind.value for d in digests],
                    ),
                )
            cur.execute("SELECT digest, id FROM frames WHERE digest = ANY(%s)", (digests,))
            for digest, frame_id in cur.fetchall():
                self._frame_ids[by_digest[bytes(digest)]] = frame_id
