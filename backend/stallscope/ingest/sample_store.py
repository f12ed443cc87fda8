"""Bulk-load canonical samples into the `samples` table with COPY, and keep the capture's tallies."""

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
COPY_SAMPLES = "COPY samples (capture_id, ts, pid, tid, comm, cpu, event, weight, stack_id) FROM STDIN"
COPY_TOTALS = (
    "COPY capture_stack_totals (capture_id, event, pid, tid, comm, stack_id, weight, samples) FROM STDIN"
)

TotalsKey = tuple[str, int | None, int | None, str, int]
"""(event, pid, tid, comm, stack id)"""


@dataclass(slots=True)
class SampleTally:
    """What the capture page shows about a parsed capture."""

    samples: int = 0
    events: Counter[str] = field(default_factory=Counter)
    event_weights: Counter[str] = field(default_factory=Counter)
    events_with_period: set[str] = field(default_factory=set)
    threads: set[tuple[int | None, int | None]] = field(default_factory=set)
    processes: set[int | str] = field(default_factory=set)
    """Pids, or process names where the file prints thread ids only."""
    first_ns: int | None = None
    last_ns: int | None = None

    def add(self, sample: Sample) -> None:
        self.samples += 1
        self.events[sample.event] += 1
        self.event_weights[sample.event] += sample.weight
        if sample.period is not None:
            self.events_with_period.add(sample.event)
        self.threads.add((sample.pid, sample.tid))
        self.processes.add(sample.pid if sample.pid is not None else sample.comm)
        t = sample.time_ns
        if t is not None:
            if self.first_ns is None or t < self.first_ns:
                self.first_ns = t
            if self.last_ns is None or t > self.last_ns:
                self.last_ns = t


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
        self._comm_text: dict[str, str] = {}
        self._totals: dict[TotalsKey, list[int]] = {}
        self.tally = SampleTally()

    @property
    def distinct_stacks(self) -> int:
        return len(self._dictionary)

    def add(self, sample: Sample) -> None:
        self._pending.append(sample)
        self.tally.add(sample)
        if len(self._pending) >= BATCH_SAMPLES:
            self.flush()

    def flush(self) -> None:
        if not self._pending:
            return
        dictionary = self._dictionary
        dictionary.resolve(s.stack for s in self._pending if not dictionary.known(s.stack))
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
        self._pending.clear()

    def finish(self) -> None:
        """Write what is still buffered, then the capture's per-stack totals."""
        self.flush()
        capture_id = self._capture_id
        with self._conn.cursor() as cur, cur.copy(COPY_TOTALS) as copy:
            for (event, pid, tid, comm, stack_id), (weight, samples) in self._totals.items():
                copy.write_row((capture_id, event, pid, tid, comm, stack_id, weight, samples))
