"""Bulk-load canonical samples into the `samples` table with COPY, and keep the capture's tallies.

What is kept in memory is bounded whatever the capture holds: per-stack totals are written out when
their table is full (readers sum the rows of one key, so a key written twice still adds up), the set of
threads gives way to a count in the database past `MAX_TRACKED_THREADS`, and the stack dictionary
bounds the rest.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import psycopg

from stallscope.ingest.model import Sample
from stallscope.ingest.stack_dictionary import StackDictionary, db_text

BATCH_SAMPLES = 20_000
BATCH_FRAMES = 2_000_000
"""Frames in the buffered samples' stacks past which they are written early: a batch of very deep
stacks would otherwise hold gigabytes of frames until its 20,000th sample."""
COPY_SAMPLES = "COPY samples (capture_id, ts, pid, tid, comm, cpu, event, weight, stack_id) FROM STDIN"
COPY_TOTALS = (
    "COPY capture_stack_totals (capture_id, event, pid, tid, comm, stack_id, weight, samples) FROM STDIN"
)
MAX_TOTALS = 250_000
"""(event, thread, stack) totals held before they are written out (about 230 bytes each)."""
MAX_TRACKED_THREADS = 250_000
"""Distinct threads a writer remembers; past this the capture's threads are counted by the database."""
MAX_CACHED_COMMS = 100_000

TotalsKey = tuple[str, int | None, int | None, str, int]
"""(event, pid, tid, comm, stack id)"""
Thread = tuple[int | None, int | None]


@dataclass(slots=True)
class SampleTally:
    """What the capture page shows about a parsed capture."""

    samples: int = 0
    events: Counter[str] = field(default_factory=Counter)
    event_weights: Counter[str] = field(default_factory=Counter)
    events_with_period: set[str] = field(default_factory=set)
    threads: set[Thread] = field(default_factory=set)
    """Distinct (pid, tid), until there are more than `MAX_TRACKED_THREADS` (see `threads_overflowed`)."""
    threads_overflowed: bool = False
    first_ns: int | None = None
    last_ns: int | None = None

    def add(self, sample: Sample) -> None:
        self.samples += 1
        self.events[sample.event] += 1
        self.event_weights[sample.event] += sample.weight
        if sample.period is not None:
            self.events_with_period.add(sample.event)
        self.threads.add((sample.pid, sample.tid))
        t = sample.time_ns
        if t is not None:
            if self.first_ns is None or t < self.first_ns:
                self.first_ns = t
            if self.last_ns is None or t > self.last_ns:
                self.last_ns = t


def bound_threads(threads: set[Thread]) -> bool:
    """Empty `threads` if it holds more than `MAX_TRACKED_THREADS`; True if it did."""
    if len(threads) <= MAX_TRACKED_THREADS:
        return False
    threads.clear()
    return True


ToTimestamp = Callable[[int | None], datetime]


class SampleWriter:
    """Buffers samples and writes them in batches inside the caller's transaction."""

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
        self._pending: list[Sample] = []
        self._pending_frames = 0
        self._comm_text: dict[str, str] = {}
        self._totals: dict[TotalsKey, list[int]] = {}
        self.tally = SampleTally()

    @property
    def distinct_stacks(self) -> int:
        return len(self._dictionary)

    def add(self, sample: Sample) -> None:
        self._pending.append(sample)
        self._pending_frames += len(sample.stack)
        self.tally.add(sample)
        if len(self._pending) >= BATCH_SAMPLES or self._pending_frames >= BATCH_FRAMES:
            self.flush()

    def flush(self) -> None:
        if not self._pending:
            return
        dictionary = self._dictionary
        dictionary.resolve(s.stack for s in self._pending)
        if len(self._comm_text) >= MAX_CACHED_COMMS:
            self._comm_text.clear()
        capture_id, to_timestamp = self._capture_id, self._to_timestamp
        comm_text, totals = self._comm_text, self._totals
        with self._conn.cursor() as cur, cur.copy(COPY_SAMPLES) as copy:
            for s in self._pending:
                comm = comm_text.get(s.comm)
                if comm is None:
                    comm = comm_text[s.comm] = db_text(s.comm)
                stack_id = dictionary.id_of(s.stack)
                key = (s.event, s.pid, s.tid, comm, stack_id)
                total = totals.get(key)
                if total is None:
                    totals[key] = [s.weight, 1]
                else:
                    total[0] += s.weight
                    total[1] += 1
                copy.write_row(
                    (
                        capture_id,
                        to_timestamp(s.time_ns),
                        s.pid,
                        s.tid,
                        comm,
                        s.cpu,
                        s.event,
                        s.weight,
                        stack_id,
                    )
                )
        if dictionary.cutting:
            dictionary.count_cuts(self._pending)
        self._pending.clear()
        self._pending_frames = 0
        if len(totals) >= MAX_TOTALS:
            self._write_totals()
        if bound_threads(self.tally.threads):
            self.tally.threads_overflowed = True

    def finish(self) -> None:
        """Write what is still buffered, then the capture's per-stack totals."""
        self.flush()
        self._write_totals()

    def _write_totals(self) -> None:
        capture_id = self._capture_id
        with self._conn.cursor() as cur, cur.copy(COPY_TOTALS) as copy:
            for (event, pid, tid, comm, stack_id), (weight, samples) in self._totals.items():
                copy.write_row((capture_id, event, pid, tid, comm, stack_id, weight, samples))
        self._totals.clear()
