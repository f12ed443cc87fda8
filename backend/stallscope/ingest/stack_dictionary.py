"""Global frame and stack ids, assigned in batches so a capture's distinct stacks cost few round trips.

Frames and stacks are shared by every capture (a diff between two hosts compares the same ids). The
upserts run on their own autocommit connection, sorted by digest, so concurrent parses never hold
each other's uncommitted keys and cannot deadlock.
"""

from __future__ import annotations

import hashlib
from array import array
from collections.abc import Iterable
from typing import Any

import psycopg

from stallscope.ingest.model import Frame, Stack

DIGEST_BYTES = 16


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
    def __init__(self, conn: psycopg.Connection[tuple[Any, ...]]) -> None:
        self._conn = conn
        self._frame_ids: dict[Frame, int] = {}
        # Keyed by object identity: parsers hand out one tuple per distinct stack, and hashing a
        # 100-frame tuple of frames on every sample would cost more than the COPY itself.
        self._stack_ids: dict[int, int] = {}
        self._alive: list[Stack] = []
        self._distinct: set[int] = set()

    def __len__(self) -> int:
        return len(self._distinct)

    def known(self, stack: Stack) -> bool:
        return id(stack) in self._stack_ids

    def id_of(self, stack: Stack) -> int:
        return self._stack_ids[id(stack)]

    def resolve(self, stacks: Iterable[Stack]) -> None:
        """Give every stack in `stacks` an id, inserting the frames and stacks the database lacks."""
        new_stacks = list({id(s): s for s in stacks if id(s) not in self._stack_ids}.values())
        if not new_stacks:
            return
        new_frames = {f for s in new_stacks for f in s if f not in self._frame_ids}
        if new_frames:
            self._resolve_frames(new_frames)
        by_digest: dict[bytes, tuple[list[Stack], list[int]]] = {}
        for stack in new_stacks:
            ids = [self._frame_ids[f] for f in stack]
            digest = stack_digest(ids)
            if digest in by_digest:  # equal stacks that are distinct objects
                by_digest[digest][0].append(stack)
            else:
                by_digest[digest] = ([stack], ids)
        digests = sorted(by_digest)
        with self._conn.cursor() as cur:
            cur.execute(
                "INSERT INTO stacks (digest, frame_ids) "
                "SELECT d, string_to_array(f, ',')::int[] FROM unnest(%s::bytea[], %s::text[]) AS t(d, f) "
                "ON CONFLICT (digest) DO NOTHING",
                (digests, [",".join(map(str, by_digest[d][1])) for d in digests]),
            )
            cur.execute("SELECT digest, id FROM stacks WHERE digest = ANY(%s)", (digests,))
            for digest, stack_id in cur.fetchall():
                for stack in by_digest[bytes(digest)][0]:
                    self._stack_ids[id(stack)] = stack_id
                    self._alive.append(stack)
                self._distinct.add(stack_id)

    def _resolve_frames(self, frames: set[Frame]) -> None:
        by_digest = {frame_digest(f): f for f in frames}
        digests = sorted(by_digest)
        with self._conn.cursor() as cur:
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
