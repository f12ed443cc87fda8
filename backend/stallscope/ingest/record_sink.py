"""Route each canonical record to its writer, keep the capture-level tallies, and report the bounds hit.

The writers' database work runs on a thread of its own (`BackgroundWrites`), so the database stores
one batch while the parser reads the next.
"""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from datetime import datetime
from functools import partial
from types import TracebackType
from typing import Any

import psycopg
from psycopg.types.json import Jsonb

from stallscope.ingest.clock import EpochMicros
from stallscope.ingest.event_store import EventsStored, EventWriter
from stallscope.ingest.limits import CaptureLimits, setting_name
from stallscope.ingest.metric_store import MetricWriter
from stallscope.ingest.model import Document, MetricPoint, MetricRow, ParseReport, Record, Sample, TimedEvent
from stallscope.ingest.sample_store import SampleWriter, Write
from stallscope.ingest.stack_dictionary import LIMIT_STACK, StackDictionary
from stallscope.kit.units import weight_unit

COUNT_THREADS = """
    SELECT count(*) FROM (
        SELECT pid, tid FROM capture_stack_totals WHERE capture_id = %(id)s
        UNION SELECT pid, tid FROM events WHERE capture_id = %(id)s
    ) AS threads
"""


class BackgroundWrites:
    """Runs writes one at a time, in the order given, on one thread of its own, while the caller goes on.

    Waiting for the database (its COPY and the stack dictionary's upserts) was a quarter of the load
    of a capture of deep stacks; psycopg lets go of the interpreter while it waits, so the parser
    can use that time. At most one write is in flight: `submit` first waits for the one before, so
    memory holds the batch being written and the batch being filled, no more. A write's error is
    raised in the caller, by the next `submit` or by `drain`, and nothing runs after it.
    """

    def __init__(self) -> None:
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="stallscope-writes")
        self._in_flight: Future[None] | None = None

    def submit(self, write: Write) -> None:
        self.drain()
        self._in_flight = self._thread.submit(write)

    def drain(self) -> None:
        """Wait for the write in flight; raises what it raised."""
        in_flight, self._in_flight = self._in_flight, None
        if in_flight is not None:
            in_flight.result()

    def close(self, failing: bool) -> None:
        """Wait for the write in flight and end the thread; its error is raised unless `failing`
        (the caller is already raising, and the write's error most likely follows from its own)."""
        try:
            if failing:
                if self._in_flight is not None:
                    self._in_flight.exception()  # waits, and leaves its error unraised
                self._in_flight = None
            else:
                self.drain()
        finally:
            self._thread.shutdown(wait=True)


class RecordSink:
    """Use it in a `with` block: leaving it waits for the write in flight, even when the parse fails,
    so the connections are never rolled back or closed under a write.

    `events_stored` observe the events as they are written (`EventWriter`): what is derived from
    them is computed from the stream, not read back from the table afterwards.
    """

    def __init__(
        self,
        copy_conn: psycopg.Connection[tuple[Any, ...]],
        dictionary: StackDictionary,
        capture_id: int,
        to_epoch_us: EpochMicros,
        limits: CaptureLimits | None = None,
        events_stored: Sequence[EventsStored] = (),
    ) -> None:
        limits = limits or CaptureLimits.from_settings()
        self._conn = copy_conn
        self._capture_id = capture_id
        self._to_timestamp = to_timestamp = to_epoch_us.timestamp
        self._dictionary = dictionary
        self._limits = limits
        self._writes = BackgroundWrites()
        submit = self._writes.submit
        self.samples = SampleWriter(copy_conn, dictionary, capture_id, to_epoch_us, submit)
        self.events = EventWriter(
            copy_conn, dictionary, capture_id, to_timestamp, limits.events, submit, events_stored
        )
        self.metrics = MetricWriter(copy_conn, capture_id, to_timestamp, limits.metric_series, submit)
        self.documents = 0

    def __enter__(self) -> RecordSink:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self._writes.close(failing=exc is not None)

    def add(self, record: Record) -> None:
        if isinstance(record, Sample):
            self.samples.add(record)
        elif isinstance(record, TimedEvent):
            self.events.add(record)
        elif isinstance(record, MetricPoint | MetricRow):
            self.metrics.add(record)
        elif isinstance(record, Document):
            self._writes.submit(partial(self._insert_document, record))
            self.documents += 1

    def _insert_document(self, document: Document) -> None:
        self._conn.execute(
            "INSERT INTO capture_documents (capture_id, kind, content) VALUES (%s, %s, %s)",
            (self._capture_id, document.kind, Jsonb(document.content)),
        )

    def finish(self, report: ParseReport) -> None:
        """Write what is buffered, wait for every write, and tell `report` of every bound reached."""
        self.samples.finish()
        self.events.flush()
        self.metrics.flush()
        self._writes.drain()
        self._report_limits(report)

    def _report_limits(self, report: ParseReport) -> None:
        dictionary, limits = self._dictionary, self._limits
        limited, depth_cut = dictionary.limited, dictionary.depth_cut
        if limited.records:
            report.limit_reached(
                limited.first_line,
                f"stack limit reached: past {limits.distinct_stacks:,} distinct stacks, "
                f"{limited.records:,} samples or events with a new stack were stored under one "
                f"`{LIMIT_STACK[0].name}` frame, so their time still counts "
                f"({setting_name('max_distinct_stacks')}={limits.distinct_stacks})",
            )
        if depth_cut.records:
            report.limit_reached(
                depth_cut.first_line,
                f"stack depth limit reached: {len(dictionary.cut_ids):,} stacks deeper than "
                f"{limits.stack_depth:,} frames were cut to their {limits.stack_depth:,} leaf-side frames "
                f"under a `[N frames cut]` frame (up to {dictionary.most_frames_cut:,} frames cut from one; "
                f"{depth_cut.records:,} samples or events) ({setting_name('max_stack_depth')}="
                f"{limits.stack_depth})",
            )
        series = self.metrics.dropped
        if series.records:
            report.limit_reached(
                series.first_line,
                f"metric series limit reached: past {limits.metric_series:,} series, {series.records:,} "
                f"points of later series were dropped ({setting_name('max_metric_series')}="
                f"{limits.metric_series})",
            )
        events = self.events.dropped
        if events.records:
            report.limit_reached(
                events.first_line,
                f"event limit reached: {events.records:,} events past the first {limits.events:,} were "
                f"dropped ({setting_name('max_events')}={limits.events})",
            )

    @property
    def total(self) -> int:
        return self.samples.tally.samples + self.events.count + self.metrics.count + self.documents

    def counts(self) -> dict[str, int]:
        counts = {
            "samples": self.samples.tally.samples,
            "events": self.events.count,
            "unclosed_events": self.events.unclosed,
            "metric_points": self.metrics.count,
            "metric_series": self.metrics.series_count,
            "documents": self.documents,
            "stacks": len(self._dictionary),
            "cut.distinct_stacks": self._dictionary.limited.records,
            "cut.stack_depth": self._dictionary.depth_cut.records,
            "cut.metric_series": self.metrics.dropped.records,
            "cut.events": self.events.dropped.records,
        }
        counts.update({f"events.{kind}": n for kind, n in self.events.kinds.items()})
        return {k: v for k, v in counts.items() if v}

    def sample_events(self) -> list[dict[str, Any]]:
        tally = self.samples.tally
        return [
            {
                "name": name,
                "samples": count,
                "weight": tally.event_weights[name],
                "unit": weight_unit(name, name in tally.events_with_period),
            }
            for name, count in tally.events.most_common()
        ]

    def thread_count(self) -> int:
        """Distinct threads of samples and events; the database counts them past what memory tracks."""
        if self.samples.tally.threads_overflowed or self.events.threads_overflowed:
            row = self._conn.execute(COUNT_THREADS, {"id": self._capture_id}).fetchone()
            return int(row[0]) if row else 0
        sampled, traced = self.samples.tally.threads, self.events.threads
        return len(sampled) + sum(1 for thread in traced if thread not in sampled)

    def time_span(self) -> tuple[datetime, datetime] | None:
        """First and last time of anything timed, mapped to UTC."""
        writers = (self.samples.tally, self.events, self.metrics)
        firsts = [self._to_timestamp(w.first_ns) for w in writers if w.first_ns is not None]
        lasts = [self._to_timestamp(w.last_ns) for w in writers if w.last_ns is not None]
        if not firsts:
            return None
        return min(firsts), max(lasts)
