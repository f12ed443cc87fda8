"""Bulk-load timed events into the `events` table with COPY, sharing the stack dictionary."""

from __future__ import annotations

from collections import Counter
from typing import Any

import psycopg
from psycopg.types.json import Jsonb

from stallscope.ingest.model import TimedEvent
from stallscope.ingest.sample_store import ToTimestamp
from stallscope.ingest.stack_dictionary import StackDictionary, db_text

BATCH_EVENTS = 20_000
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
    ) -> None:
        self._conn = copy_conn
        self._dictionary = dictionary
        self._capture_id = capture_id
        self._to_timestamp = to_timestamp
        self._pending: list[TimedEvent] = []
        self.kinds: Counter[str] = Counter()
        self.unclosed = 0
        self.threads: set[tuple[int | None, int | None]] = set()
        self.first_ns: int | None = None
        self.last_ns: int | None = None

    @property
    def count(self) -> int:
        return sum(self.kinds.values())

    def add(self, event: TimedEvent) -> None:
        self._pending.append(event)
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
        if len(self._pending) >= BATCH_EVENTS:
            self.flush()

    def flush(self) -> None:
        if not self._pending:
            return
        dictionary = self._dictionary
        dictionary.resolve(e.stack for e in self._pending if not dictionary.known(e.stack))
        capture_id, to_timestamp = self._capture_id, self._to_timestamp
        with self._conn.cursor() as cur, cur.copy(COPY_EVENTS) as copy:
            for e in self._pending:
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
        self._pending.clear()
