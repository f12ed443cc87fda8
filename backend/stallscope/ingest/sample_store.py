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
from datetime import datetime, timedelta
from functools import partial
from typing import Any

import psycopg

from stallscope.ingest.clock import EPOCH
from stallscope.ingest.model import Sample
from stallscope.ingest.stack_dictionary import COPY_TEXT_ESCAPES, StackDictionary, copy_text

BATCH_SAMPLES = 20_000
BATCH_FRAMES = 500_000
"""Frames in the buffered samples' stacks past which they are written early: a batch of very deep
stacks would otherwise hold gigabytes of frames until its 20,000th sample; and the last batch is
written while nothing else runs, once the parser has read everything."""
COPY_SAMPLES = "COPY samples (capture_id, ts, pid, tid, comm, cpu, event, weight, stack_id) FROM STDIN"
COPY_TOTALS = (
    "COPY capture_stack_totals (capture_id, event, pid, tid, comm, stack_id, weight, samples) FROM STDIN"
)
MAX_TOTALS = 250_000
"""(event, thread, stack) totals held before they are written out (about 230 bytes each)."""
MAX_TRACKED_THREADS = 250_000
"""Distinct threads a writer remembers; past this the capture's threads are counted by the database."""
MAX_CACHED_COMMS = 100_000
MAX_CACHED_SECONDS = 100_000
NULL = "\\N"
"""NULL in a text-format COPY row."""
ONE_MICROSECOND = timedelta(microseconds=1)


def copy_text_as_is(value: str) -> str:
    """A COPY field holding `value` unchanged (an event name is stored as the importer gave it)."""
    return value.translate(COPY_TEXT_ESCAPES)


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
Write = Callable[[], None]
Submit = Callable[[Write], None]
"""Runs a batch's database write: at once, or in order on the sink's writer thread (`record_sink`)."""


def write_now(write: Write) -> None:
    write()


class SampleWriter:
    """Buffers samples and hands them to `submit` in batches, written inside the caller's transaction.

    What `add` keeps (the tally) belongs to the parsing thread; what a batch's write keeps (per-stack
    totals, the command-name cache, the stack dictionary) belongs to whichever thread runs the writes.
    """

    def __init__(
        self,
        copy_conn: psycopg.Connection[tuple[Any, ...]],
        dictionary: StackDictionary,
        capture_id: int,
        to_timestamp: ToTimestamp,
        submit: Submit = write_now,
    ) -> None:
        self._conn = copy_conn
        self._dictionary = dictionary
        self._capture_id = capture_id
        self._to_timestamp = to_timestamp
        self._submit = submit
        self._pending: list[Sample] = []
        self._pending_frames = 0
        self._comm_text: dict[str, str] = {}
        """Each command name as a COPY field (`copy_text`), until `MAX_CACHED_COMMS` of them."""
        self._event_text: dict[str, str] = {}
        """Each event name as a COPY field; kept for every event, as the tally keeps them all."""
        self._second_text: dict[int, str] = {}
        """`YYYY-MM-DD HH:MM:SS` (UTC) of each second since the epoch met lately."""
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
        """Hand the buffered samples to be written."""
        if not self._pending:
            return
        batch = self._pending
        self._pending = []
        self._pending_frames = 0
        self._submit(partial(self._write, batch))
        if bound_threads(self.tally.threads):
            self.tally.threads_overflowed = True

    def finish(self) -> None:
        """Hand over what is still buffered, then the capture's per-stack totals."""
        self.flush()
        self._submit(self._write_totals)

    def _write(self, batch: list[Sample]) -> None:
        dictionary = self._dictionary
        stacks = [s.stack for s in batch]
        dictionary.resolve(stacks)
        if len(self._comm_text) >= MAX_CACHED_COMMS:
            self._comm_text.clear()
        if len(self._second_text) >= MAX_CACHED_SECONDS:
            self._second_text.clear()
        capture_id, to_timestamp = self._capture_id, self._to_timestamp
        comm_text, event_text, totals = self._comm_text, self._event_text, self._totals
        second_text = self._second_text
        stack_ids = dictionary.ids_of(stacks)
        rows = []
        for s, stack_id in zip(batch, stack_ids, strict=True):
            comm = comm_text.get(s.comm)
            if comm is None:
                comm = comm_text[s.comm] = copy_text(s.comm)
            event = event_text.get(s.event)
            if event is None:
                event = event_text[s.event] = copy_text_as_is(s.event)
            key = (s.event, s.pid, s.tid, comm, stack_id)
            weight = s.weight
            total = totals.get(key)
            if total is None:
                totals[key] = [weight, 1]
            else:
                total[0] += weight
                total[1] += 1
            pid, tid, cpu = s.pid, s.tid, s.cpu
            # The date and time of each second are formatted once: `str` of every timestamp was a
            # quarter of building the rows.
            second, micros = divmod((to_timestamp(s.time_ns) - EPOCH) // ONE_MICROSECOND, 1_000_000)
            date_time = second_text.get(second)
            if date_time is None:
                date_time = second_text[second] = str(EPOCH + timedelta(seconds=second))[:19]
            # One line a sample, as text COPY reads it: formatting it here costs a fraction of
            # handing psycopg a tuple to adapt field by field.
            rows.append(
                f"{capture_id}\t{date_time}.{micros:06d}+00\t{NULL if pid is None else pid}\t"
                f"{NULL if tid is None else tid}\t{comm}\t{NULL if cpu is None else cpu}\t"
                f"{event}\t{weight}\t{stack_id}\n"
            )
        with self._conn.cursor() as cur, cur.copy(COPY_SAMPLES) as copy:
            copy.write("".join(rows))
        del rows
        if dictionary.cutting:
            dictionary.count_cuts(batch)
        if len(totals) >= MAX_TOTALS:
            self._write_totals()

    def _write_totals(self) -> None:
        capture_id, event_text = self._capture_id, self._event_text
        rows = [
            f"{capture_id}\t{event_text[event]}\t{NULL if pid is None else pid}\t"
            f"{NULL if tid is None else tid}\t{comm}\t{stack_id}\t{weight}\t{samples}\n"
            for (event, pid, tid, comm, stack_id), (weight, samples) in self._totals.items()
        ]
        if rows:
            with self._conn.cursor() as cur, cur.copy(COPY_TOTALS) as copy:
                copy.write("".join(rows))
        self._totals.clear()
