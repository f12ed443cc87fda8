"""Bulk-load timed events into the `events` table with COPY, sharing the stack dictionary.

Past `max_events` events are dropped and counted: each one costs a row in the database, and the
events table is what grows without end when a trace runs too long.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

import psycopg
from psycopg.types.json import Jsonb

from stallscope.ingest.limits import Cut
from stallscope.ingest.model import Stack, TimedEvent
from stallscope.ingest.sample_store import (
    BATCH_FRAMES,
    Submit,
    Thread,
    ToTimestamp,
    bound_threads,
    write_now,
)
from stallscope.ingest.stack_dictionary import StackDictionary, db_text

BATCH_EVENTS = 20_000
StackId = Callable[[Stack], int]
"""The id an event's stack is stored under (`StackDictionary.id_of`), valid during the call it is given to."""
EventsStored = Callable[[Sequence[TimedEvent], StackId], None]
"""Told of each batch of events once it is written (see `EventWriter`)."""
COPY_EVENTS = (
    "COPY events (capture_id, ts, duration_ns, kind, name, pid, tid, comm, cpu, state, stack_id, "
    "waker_tid, args, result, attrs) FROM STDIN"
)


class EventWriter:
    def __init__(
        self,
        copy_conn: psycopg.Connection[tuple[Any, ...]],
        dictionary: StackDictionary,
        capture_id: int,
        to_timestamp: ToTimestamp,
        max_events: int,
        submit: Submit = write_now,
        stored: Sequence[EventsStored] = (),
    ) -> None:
        self._conn = copy_conn
        self._submit = submit
        self._stored = tuple(stored)
        """Told of every batch once written: exactly the events stored (none past `max_events`), in
        the order stored, with their stacks' ids. They run where the write runs (the sink's writer
        thread), one batch at a time, and what they raise fails the parse as a write's error does."""
        self._dictionary = dictionary
        self._capture_id = capture_id
        self._to_timestamp = to_timestamp
        self._max_events = max_events
        self._pending: list[TimedEvent] = []
        self._pending_frames = 0
        self.count = 0
        self.kinds: Counter[str] = Counter()
        self.unclosed = 0
        self.threads: set[Thread] = set()
        self.threads_overflowed = False
        self.first_ns: int | None = None
        self.last_ns: int | None = None
        self.dropped = Cut()
        """Events past `max_events`, not stored."""

    def add(self, event: TimedEvent) -> None:
        if self.count >= self._max_events:
            self.dropped.add(event.line)
            return
        self._pending.append(event)
        self._pending_frames += len(event.stack)
        self.count += 1
        self.kinds[event.kind.value] += 1
        if event.duration_ns is None:
            self.unclosed += 1
        self.threads.add((event.pid, event.tid))
        start = event.start_ns
        if start is not None:
            end = start + (event.duration_ns or 0)
            if self.first_ns is None or start < self.first_ns:
                self.first_ns = start
            if self.last_ns is None or end > self.last_ns:
                self.last_ns = end
        if len(self._pending) >= BATCH_EVENTS or self._pending_frames >= BATCH_FRAMES:
            self.flush()

    def flush(self) -> None:
        """Hand the buffered events to be written (`SampleWriter` says by whom)."""
        if not self._pending:
            return
        batch = self._pending
        self._pending = []
        self._pending_frames = 0
        self._submit(partial(self._write, batch))
        if bound_threads(self.threads):
            self.threads_overflowed = True

    def _write(self, batch: list[TimedEvent]) -> None:
        dictionary = self._dictionary
        dictionary.resolve([e.stack for e in batch])
        capture_id, to_timestamp = self._capture_id, self._to_timestamp
        with self._conn.cursor() as cur, cur.copy(COPY_EVENTS) as copy:
            for e in batch:
                copy.write_row(
                    (
                        capture_id,
                        to_timestamp(e.start_ns),
                        e.duration_ns,
                        e.kind.value,
                        db_text(e.name),
                        e.pid,
                        e.tid,
                        db_text(e.comm),
                        e.cpu,
                        e.state,
                        dictionary.id_of(e.stack),
                        e.waker_tid,
                        db_text(e.args) if e.args is not None else None,
                        db_text(e.result) if e.result is not None else None,
                        Jsonb(e.attrs) if e.attrs else None,
                    )
                )
        for stored in self._stored:
            stored(batch, dictionary.id_of)
        if dictionary.cutting:
            dictionary.count_cuts(batch)
