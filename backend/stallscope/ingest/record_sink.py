"""Route each canonical record to its writer and keep the capture-level tallies."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

import psycopg
from psycopg.types.json import Jsonb

from stallscope.ingest.event_store import EventWriter
from stallscope.ingest.metric_store import MetricWriter
from stallscope.ingest.model import Document, MetricPoint, MetricRow, Record, Sample, TimedEvent
from stallscope.ingest.sample_store import SampleWriter
from stallscope.ingest.stack_dictionary import StackDictionary
from stallscope.kit.units import weight_unit


class RecordSink:
    def __init__(
        self,
        copy_conn: psycopg.Connection[tuple[Any, ...]],
        dictionary: StackDictionary,
        capture_id: int,
        to_timestamp: Callable[[int | None], datetime],
    ) -> None:
        self._conn = copy_conn
        self._capture_id = capture_id
        self._to_timestamp = to_timestamp
        self._dictionary = dictionary
        self.samples = SampleWriter(copy_conn, dictionary, capture_id, to_timestamp)
        self.events = EventWriter(copy_conn, dictionary, capture_id, to_timestamp)
        self.metrics = MetricWriter(copy_conn, capture_id, to_timestamp)
        self.documents = 0

    def add(self, record: Record) -> None:
        if isinstance(record, Sample):
            self.samples.add(record)
        elif isinstance(record, TimedEvent):
            self.events.add(record)
        elif isinstance(record, MetricPoint | MetricRow):
            self.metrics.add(record)
        elif isinstance(record, Document):
            self._conn.execute(
                "INSERT INTO capture_documents (capture_id, kind, content) VALUES (%s, %s, %s)",
                (self._capture_id, record.kind, Jsonb(record.content)),
            )
            self.documents += 1

    def finish(self) -> None:
        self.samples.finish()
        self.events.flush()
        self.metrics.flush()

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
        return len(self.samples.tally.threads | self.events.threads)

    def time_span(self) -> tuple[datetime, datetime] | None:
        """First and last time of anything timed, mapped to UTC."""
        writers = (self.samples.tally, self.events, self.metrics)
        firsts = [self._to_timestamp(w.first_ns) for w in writers if w.first_ns is not None]
        lasts = [self._to_timestamp(w.last_ns) for w in writers if w.last_ns is not None]
        if not firsts:
            return None
        return min(firsts), max(lasts)
