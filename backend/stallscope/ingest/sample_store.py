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

from stallscope.ingest.clock import EPOCH, EpochMicros
from stallscope.ingest.model import Sample
from stallscope.ingest.sample_rows import COPY_SAMPLES_BINARY, NamePairs, Totals, column, pack_batch
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
MAX_CACHED_SECONDS = 100_000
NULL = "\\N"
"""NULL in a text-format COPY row."""


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

    def add_batch(self, batch: list[Sample]) -> None:
        """Count a batch of samples a column at a time, at C speed: counting them one call a sample
        cost the parsing thread a second per million samples."""
        self.samples += len(batch)
        events = column(batch, "event")
        weights = column(batch, "weight")
        self.events.update(events)
        if len(kinds := set(events)) == 1:
            (event,) = kinds
            self.event_weights[event] += sum(weights)
            if any(map(_has_period, batch)):
                self.events_with_period.add(event)
        else:
            for event, weight, sample in zip(events, weights, batch, strict=True):
                self.event_weights[event] += weight
                if sample.period is not None:
                    self.events_with_period.add(event)
        self.threads.update(zip(column(batch, "pid"), column(batch, "tid"), strict=True))
        times = [t for t in column(batch, "time_ns") if t is not None]
        if times:
            first, last = min(times), max(times)
            if self.first_ns is None or first < self.first_ns:
                self.first_ns = first
            if self.last_ns is None or last > self.last_ns:
                self.last_ns = last


def _has_period(sample: Sample) -> bool:
    return sample.period is not None


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
        to_epoch_us: EpochMicros,
        submit: Submit = write_now,
    ) -> None:
        self._conn = copy_conn
        self._dictionary = dictionary
        self._capture_id = capture_id
        self._to_epoch_us = to_epoch_us
        self._submit = submit
        self._pending: list[Sample] = []
        self._pending_frames = 0
        self._names = NamePairs()
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
        if len(self._pending) >= BATCH_SAMPLES or self._pending_frames >= BATCH_FRAMES:
            self.flush()

    def flush(self) -> None:
        """Hand the buffered samples to be written."""
        if not self._pending:
            return
        batch = self._pending
        self._pending = []
        self._pending_frames = 0
        self.tally.add_batch(batch)
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
        stack_ids = dictionary.ids_of(stacks)
        packed = pack_batch(batch, stack_ids, self._capture_id, self._to_epoch_us, self._names)
        if packed.copy_data:
            with self._conn.cursor() as cur, cur.copy(COPY_SAMPLES_BINARY) as copy:
                copy.write(packed.copy_data)
        if packed.left_over:
            self._write_text_rows(
                [batch[i] for i in packed.left_over], [stack_ids[i] for i in packed.left_over]
            )
        self._add_totals(packed.totals)
        if dictionary.cutting:
            dictionary.count_cuts(batch)
        if len(self._totals) >= MAX_TOTALS:
            self._write_totals()

    def _add_totals(self, totals: Totals) -> None:
        pairs, mine = self._names.pairs, self._totals
        for pair, pid, tid, stack_id, weight, samples in totals:
            names = pairs[pair]
            key = (names.event, pid, tid, names.comm_text, stack_id)
            total = mine.get(key)
            if total is None:
                mine[key] = [weight, samples]
            else:
                total[0] += weight
                total[1] += samples

    def _write_text_rows(self, samples: list[Sample], stack_ids: list[int]) -> None:
        """Samples binary COPY cannot carry as the database would take them (`sample_rows`), as text:
        the database then accepts or refuses each as it always did."""
        if len(self._second_text) >= MAX_CACHED_SECONDS:
            self._second_text.clear()
        capture_id, to_epoch_us, second_text = self._capture_id, self._to_epoch_us, self._second_text
        rows = []
        for s, stack_id in zip(samples, stack_ids, strict=True):
            pid, tid, cpu = s.pid, s.tid, s.cpu
            second, micros = divmod(to_epoch_us(s.time_ns), 1_000_000)
            date_time = second_text.get(second)
            if date_time is None:
                date_time = second_text[second] = str(EPOCH + timedelta(seconds=second))[:19]
            rows.append(
                f"{capture_id}\t{date_time}.{micros:06d}+00\t{NULL if pid is None else pid}\t"
                f"{NULL if tid is None else tid}\t{copy_text(s.comm)}\t{NULL if cpu is None else cpu}\t"
                f"{copy_text_as_is(s.event)}\t{s.weight}\t{stack_id}\n"
            )
        with self._conn.cursor() as cur, cur.copy(COPY_SAMPLES) as copy:
            copy.write("".join(rows))

    def _write_totals(self) -> None:
        capture_id = self._capture_id
        event_text = {event: copy_text_as_is(event) for event in {key[0] for key in self._totals}}
        rows = [
            f"{capture_id}\t{event_text[event]}\t{NULL if pid is None else pid}\t"
            f"{NULL if tid is None else tid}\t{comm}\t{stack_id}\t{weight}\t{samples}\n"
            for (event, pid, tid, comm, stack_id), (weight, samples) in self._totals.items()
        ]
        if rows:
            with self._conn.cursor() as cur, cur.copy(COPY_TOTALS) as copy:
                copy.write("".join(rows))
        self._totals.clear()
