"""Global frame and stack ids, assigned in batches so a capture's distinct stacks cost few round trips.

Frames and stacks are shared by every capture (a diff between two hosts compares the same ids). The
upserts run on their own connection, one short transaction a batch, sorted by digest, so concurrent
parses never hold each other's uncommitted keys for long and cannot deadlock. A batch's new frames
and stacks go to a temporary table by binary COPY, built here in bulk: as array parameters psycopg
escaped every element of every stack in Python, which on a capture of deep stacks cost as much as
parsing it.

Memory stays bounded whatever the capture holds. The caches from frame and stack objects to ids are
emptied when full: a stack seen again after that is looked up in the database, once per batch. What
is kept for every distinct stack of the capture is its id, up to `max_distinct_stacks`; past that a
new stack is stored as the one `[stack limit reached]` stack, so its samples still count. A stack
deeper than `max_stack_depth` is cut to its leaf side under a frame naming how many frames were cut,
as perf cuts call chains past its own limit.
"""

from __future__ import annotations

import hashlib
import struct
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import chain, repeat
from typing import Any

import numpy as np
import psycopg

from stallscope.ingest.limits import CaptureLimits, Cut
from stallscope.ingest.model import Frame, FrameKind, InternedStacks, Sample, Stack, StackCodes, TimedEvent

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


COPY_BINARY_HEADER = b"PGCOPY\n\xff\r\n\x00" + struct.pack(">ii", 0, 0)
COPY_BINARY_TRAILER = struct.pack(">h", -1)
INT4_OID = 23


@dataclass(frozen=True, slots=True)
class SharedTable:
    """A table every capture shares, one row a digest: `id`, `digest`, then the other columns."""

    name: str
    columns: tuple[tuple[str, str], ...]
    """The other columns, with their types."""
    id_type: str
    """The id as binary COPY takes it (`struct` format): `i` (integer) or `q` (bigint)."""

    @property
    def column_list(self) -> str:
        return ", ".join(name for name, _ in self.columns)

    @property
    def staged(self) -> str:
        return f"stallscope_new_{self.name}"


FRAMES = SharedTable("frames", (("name", "text"), ("kind", "text")), "i")
STACKS = SharedTable("stacks", (("frame_ids", "int[]"),), "q")
STAGING = "CREATE TEMP TABLE IF NOT EXISTS {staged} (digest bytea, {types}) ON COMMIT DELETE ROWS"
"""Where a batch's rows wait for their upsert; emptied when the batch's transaction commits."""
# One look-up per staged row through the unique index, whatever the planner thinks of a temporary
# table it has no statistics for (a join could read the whole shared table).
STAGED_IDS = "SELECT n.digest, (SELECT t.id FROM {table} t WHERE t.digest = n.digest) FROM {staged} n"


def frame_digest(frame: Frame) -> bytes:
    return hashlib.blake2b(
        f"{frame.kind.value}\0{frame.name}".encode("utf-8", "surrogateescape"), digest_size=DIGEST_BYTES
    ).digest()


def stack_digest(frame_ids: bytes | memoryview) -> bytes:
    """A stack's digest, from its frame ids as native int32s, root first."""
    return hashlib.blake2b(frame_ids, digest_size=DIGEST_BYTES).digest()


ARRAY_HEAD = struct.Struct(">6i")
"""An int4[] field's length, then its header: one dimension, no NULLs, int4, its length, from 1."""
EMPTY_ARRAY = struct.pack(">4i", 12, 0, 0, INT4_OID)
CODE_BYTES = 4
"""An importer's frame code: a native uint32 (`InternedStacks`)."""
NO_FRAME = -1
"""Where a frame has no id (it was looked up without `insert`, and no stored stack has it)."""


class FramedStacks:
    """Stacks as one flat array of frame ids, root first, stack after stack.

    A batch's new stacks are mapped to ids and written in bulk: one array look-up by frame code for
    the whole batch (`StackDictionary._framed`), then one conversion each to native ints (for the
    digests) and big-endian ones (for binary COPY). A dictionary look-up per frame object, a join per
    stack and an array field built per stack took about half a second of the writer's time on the
    deep capture of the benchmarks, which the interpreter runs in turn with the parser.
    """

    def __init__(self, ids: np.ndarray, lengths: np.ndarray) -> None:
        self.ids = ids
        self.ends = np.cumsum(lengths)
        self.starts = self.ends - lengths

    def __len__(self) -> int:
        return len(self.ends)

    @staticmethod
    def in_order(parts: list[tuple[list[int], FramedStacks]]) -> FramedStacks:
        """One `FramedStacks` of several, each given with the positions its stacks take."""
        positions = np.concatenate([np.asarray(where, dtype=np.int64) for where, _ in parts])
        ids = np.concatenate([part.ids for _, part in parts])
        offsets = np.cumsum([0] + [len(part.ids) for _, part in parts[:-1]])  # where each part's ids begin
        starts = np.concatenate([part.starts + at for (_, part), at in zip(parts, offsets, strict=True)])
        lengths = np.concatenate([part.ends - part.starts for _, part in parts])
        order = np.argsort(positions)
        starts, lengths = starts[order], lengths[order]
        shift = starts - (np.cumsum(lengths) - lengths)  # from each stack's place here to its place there
        return FramedStacks(ids[np.arange(int(lengths.sum())) + np.repeat(shift, lengths)], lengths)

    def complete(self) -> list[bool]:
        """Whether each stack has an id for every frame."""
        unknown = np.concatenate(([0], np.cumsum(self.ids == NO_FRAME)))
        whole: list[bool] = (unknown[self.ends] == unknown[self.starts]).tolist()
        return whole

    def digests(self, which: list[int]) -> list[bytes]:
        """`stack_digest` of the stacks at `which` (complete ones)."""
        native = self.ids.astype(np.int32).data.cast("B")
        starts, ends = (self.starts[which] * 4).tolist(), (self.ends[which] * 4).tolist()
        return [stack_digest(native[a:b]) for a, b in zip(starts, ends, strict=True)]

    def array_fields(self, which: list[int]) -> list[bytes]:
        """The binary COPY field of each stack's `frame_ids` (int4[]) at `which`."""
        cells = np.empty((len(self.ids), 2), dtype=">i4")  # each element: its length (4), then its value
        cells[:, 0] = 4
        cells[:, 1] = self.ids
        flat = cells.view(np.uint8).reshape(-1).data
        starts, ends = self.starts[which].tolist(), self.ends[which].tolist()
        head = ARRAY_HEAD.pack
        return [
            head(20 + 8 * (end - start), 1, 0, INT4_OID, end - start, 1) + flat[8 * start : 8 * end]
            if end > start
            else EMPTY_ARRAY
            for start, end in zip(starts, ends, strict=True)
        ]


def binary_field(value: bytes) -> bytes:
    return struct.pack(">i", len(value)) + value


def db_text(value: str) -> str:
    """PostgreSQL text cannot hold NUL or lone surrogates; keep everything else as it came."""
    if "\0" in value:
        value = value.replace("\0", "\\0")
    return value.encode("utf-8", "backslashreplace").decode("utf-8")


COPY_TEXT_ESCAPES = str.maketrans({"\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r"})


def copy_text(value: str) -> str:
    """`db_text(value)` as a field of text-format COPY, whose rows writers build in bulk."""
    return db_text(value).translate(COPY_TEXT_ESCAPES)


class StackDictionary:
    """Ids of stacks and their frames; `conn` must be in autocommit mode (each batch commits alone)."""

    def __init__(
        self,
        conn: psycopg.Connection[tuple[Any, ...]],
        limits: CaptureLimits | None = None,
        codes: StackCodes | None = None,
    ) -> None:
        limits = limits or CaptureLimits.from_settings()
        self._conn = conn
        self._codes = codes or StackCodes()
        """The importer's stacks by code, if it interns them so (`_framed`)."""
        self._by_code = np.empty(0, dtype=np.int32)
        self._by_code_generation = -1
        self._staging: set[str] = set()
        """The temporary tables made on `conn` so far."""
        self.max_stacks = limits.distinct_stacks
        self.max_depth = limits.stack_depth
        self._frame_ids: dict[Frame, int] = {}
        # The same ids by frame object: parsers hand out one object per distinct frame, and hashing
        # a frame by value runs Python code (a dataclass's and an enum's `__hash__`), a microsecond
        # a frame, which on a deep capture cost more than the parse itself. Objects are kept alive
        # while they are keys here, so their ids stay theirs.
        self._id_by_object: dict[int, int] = {}
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

    def ids_of(self, stacks: list[Stack]) -> list[int]:
        """`id_of` each stack, at C speed."""
        return list(map(self._stack_ids.__getitem__, map(id, stacks)))

    def resolve(self, stacks: list[Stack]) -> None:
        """Give every stack in `stacks` an id, inserting the frames and stacks the database lacks.

        Pass every stack `id_of` will be asked about: the caches may be emptied here first.
        """
        if len(self._stack_ids) >= MAX_CACHED_STACKS or self._alive_frames >= MAX_CACHED_STACK_FRAMES:
            self._stack_ids.clear()
            self._alive.clear()
            self._alive_frames = 0
        if len(self._frame_ids) >= MAX_CACHED_FRAMES or len(self._objects) >= MAX_CACHED_FRAMES:
            self._frame_ids.clear()
            self._id_by_object.clear()
            self._objects.clear()
        cached = self._stack_ids
        by_object = dict(zip(map(id, stacks), stacks, strict=True))  # at C speed: one entry a sample
        # In the order they came: past the distinct-stack limit, the first ones are the ones kept.
        new_stacks = [stack for key, stack in by_object.items() if key not in cached]
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
        framed = self._framed(bodies, insert=True)
        every = list(range(len(framed)))
        digests = framed.digests(every)
        first_of: dict[bytes, int] = {}
        for index, digest in enumerate(digests):
            first_of.setdefault(digest, index)  # equal stacks that are distinct objects share one
        fields = dict(zip(first_of, framed.array_fields(list(first_of.values())), strict=True))
        stack_ids = self._upsert(STACKS, fields, insert=True)
        result = [stack_ids[d] for d in digests]
        self._distinct.update(result)
        return result

    def _framed(self, bodies: list[Stack], insert: bool) -> FramedStacks:
        """The bodies' frame ids, learning the frames not known yet; `NO_FRAME` for a frame the
        database has never held (only without `insert`: with it, every frame gets an id).

        Stacks the importer interned by code are mapped through their codes; the others (a stack cut
        to `max_depth`, `LIMIT_STACK`, one from before the importer's table started again, or from
        an importer without codes) frame object by frame object.
        """
        interned = self._codes.current
        if interned is None:
            return self._framed_by_object(bodies, insert)
        keys = list(map(interned.codes_of.get, map(id, bodies)))
        coded_keys = [key for key in keys if key is not None]
        if len(coded_keys) == len(bodies):
            return self._framed_by_code(interned, coded_keys, insert)
        if not coded_keys:
            return self._framed_by_object(bodies, insert)
        coded = [index for index, key in enumerate(keys) if key is not None]
        others = [index for index, key in enumerate(keys) if key is None]
        by_code = self._framed_by_code(interned, coded_keys, insert)
        by_object = self._framed_by_object([bodies[index] for index in others], insert)
        return FramedStacks.in_order([(coded, by_code), (others, by_object)])

    def _framed_by_code(self, interned: InternedStacks, keys: list[bytes], insert: bool) -> FramedStacks:
        codes = np.frombuffer(b"".join(keys), dtype=np.uint32)
        lengths = np.fromiter(map(len, keys), dtype=np.int64, count=len(keys)) // CODE_BYTES
        by_code = self._ids_by_code(interned)
        ids = by_code[codes]
        if (ids == NO_FRAME).any():
            lacking = np.unique(codes[ids == NO_FRAME])
            frames = [interned.frames[code] for code in lacking.tolist()]
            self._learn_frames(frames, insert)
            get = self._id_by_object.get
            by_code[lacking] = [get(id(frame), NO_FRAME) for frame in frames]
            ids = by_code[codes]
            assert not insert or NO_FRAME not in ids, "every frame was inserted"
        return FramedStacks(ids, lengths)

    def _ids_by_code(self, interned: InternedStacks) -> np.ndarray:
        """Frame ids by the importer's frame codes (`NO_FRAME` where not known yet), for the
        importer's current table; ids never change, so only a new table starts it again."""
        needed = len(interned.frames)
        if self._by_code_generation != interned.generation:
            self._by_code = np.full(max(needed, 1024), NO_FRAME, dtype=np.int32)
            self._by_code_generation = interned.generation
        elif needed > len(self._by_code):
            more = np.full(max(needed, 2 * len(self._by_code)) - len(self._by_code), NO_FRAME, dtype=np.int32)
            self._by_code = np.concatenate((self._by_code, more))
        return self._by_code

    def _framed_by_object(self, bodies: list[Stack], insert: bool) -> FramedStacks:
        frames = list(chain.from_iterable(bodies))
        keys = list(map(id, frames))
        get = self._id_by_object.get
        ids = np.fromiter(map(get, keys, repeat(NO_FRAME)), dtype=np.int64, count=len(keys))
        lacking = np.flatnonzero(ids == NO_FRAME).tolist()
        if lacking:
            self._learn_frames([frames[index] for index in lacking], insert)
            ids[lacking] = [get(keys[index], NO_FRAME) for index in lacking]
            assert not insert or NO_FRAME not in ids, "every frame was inserted"
        lengths = np.fromiter(map(len, bodies), dtype=np.int64, count=len(bodies))
        return FramedStacks(ids, lengths)

    def _learn_frames(self, frames: list[Frame], insert: bool) -> None:
        """Know the id of every frame object in `frames` (by object, see `__init__`), looking frames
        up by value first and in the database then; frames it lacks are inserted only if `insert`.

        Without `insert`, a frame the database has never held stays unknown (`_held_by_capture`).
        """
        objects = dict(zip(map(id, frames), frames, strict=True))
        frame_ids = self._frame_ids
        new_frames = {frame for frame in objects.values() if frame not in frame_ids}
        if new_frames:
            self._resolve_frames(new_frames, insert)
        known = self._id_by_object
        for key, frame in objects.items():
            frame_id = frame_ids.get(frame)
            if frame_id is not None:
                known[key] = frame_id
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
        framed = self._framed(bodies, insert=False)
        complete = [index for index, whole in enumerate(framed.complete()) if whole]
        positions: dict[bytes, list[int]] = {}
        for index, digest in zip(complete, framed.digests(complete), strict=True):
            positions.setdefault(digest, []).append(index)
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

    def _resolve_frames(self, frames: set[Frame], insert: bool) -> None:
        """Learn the ids of `frames`, inserting those the database lacks only if `insert`."""
        by_digest = {frame_digest(f): f for f in frames}
        fields = {
            digest: binary_field(db_text(frame.name).encode()) + binary_field(frame.kind.value.encode())
            for digest, frame in by_digest.items()
        }
        for digest, frame_id in self._upsert(FRAMES, fields, insert).items():
            self._frame_ids[by_digest[digest]] = frame_id

    def _upsert(self, table: SharedTable, fields: dict[bytes, bytes], insert: bool) -> dict[bytes, int]:
        """Ids by digest of the rows whose other fields (binary COPY) are `fields`, inserting those
        `table` lacks if `insert`; a digest that is nowhere is left out.

        Staged in a temporary table, then inserted sorted by digest, skipping those already there
        (or waiting for another parse's to commit), in one short transaction.
        """
        count = 1 + len(table.columns)
        rows = [
            struct.pack(f">hi{DIGEST_BYTES}s", count, DIGEST_BYTES, digest) + row
            for digest, row in fields.items()
        ]
        with self._conn.transaction(), self._conn.cursor() as cur:
            if table.staged not in self._staging:  # made once a connection (kept if this commits)
                types = ", ".join(f"{name} {kind}" for name, kind in table.columns)
                cur.execute(STAGING.format(staged=table.staged, types=types))
            with cur.copy(f"COPY {table.staged} FROM STDIN (FORMAT BINARY)") as copy:
                copy.write(b"".join([COPY_BINARY_HEADER, *rows, COPY_BINARY_TRAILER]))
            if insert:
                cur.execute(
                    f"INSERT INTO {table.name} (digest, {table.column_list}) SELECT * FROM {table.staged} "
                    "ORDER BY digest ON CONFLICT (digest) DO NOTHING"
                )
            cur.execute(STAGED_IDS.format(table=table.name, staged=table.staged), binary=True)
            ids = {digest: row_id for digest, row_id in cur.fetchall() if row_id is not None}
        self._staging.add(table.staged)
        return ids
