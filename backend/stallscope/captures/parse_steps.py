"""What features add to the parse job: the tables they derive from a capture's records, and when.

A feature describes its part as a `ParseStep`, in its own folder; `stallscope/parse_pipeline.py` is
the one place that lists the features taking part, in the order their steps run. The parse job
(`captures/parsing.py`) runs whatever is listed there and names none of them, so a new derived table
touches its feature's folder and that list, not the job.

Each part of a step is tied to one moment of the job, and to what a failure there does:
- `observe`: made when a load starts; sees every batch of events as it is stored, so a step computes
  from the stream what it would otherwise read back from the table after the commit.
- `in_transaction`: after the records and the capture's row are written, before the commit, on the
  parse's own connection: its rows commit with the samples or not at all, and what it raises fails
  the parse (a step whose data is optional catches its own errors, in a savepoint).
- `after_commit`: after the commit, before the capture turns ready, for what may fail without
  failing the capture: each catches its own errors and says what the views do instead.
- `discard`: when a parse fails, after the step's `tables` are emptied, for what they do not hold.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import psycopg

from stallscope.ingest.clock import EpochMicros
from stallscope.ingest.event_store import StackId
from stallscope.ingest.model import TimedEvent

Conn = psycopg.Connection[tuple[Any, ...]]


@dataclass(frozen=True, slots=True)
class Loading:
    """The load a step's observer watches."""

    capture_id: int
    to_epoch_us: EpochMicros
    """The writers' own conversion of capture-clock times (the same object: its start pin is set
    by the first time either meets), so an observer's times are the ones stored."""


@dataclass(frozen=True, slots=True)
class Loaded:
    """The load just written, its transaction still open on `conn`."""

    conn: Conn
    capture_id: int
    empty: bool
    """The upload held nothing at all (the capture ends `empty`, with no records)."""


@dataclass(frozen=True, slots=True)
class Committed:
    """The parse committed, its capture not yet ready."""

    database_url: str
    aux: Conn
    """The job's autocommit connection."""
    capture_id: int


class LoadObserver(Protocol):
    """One load's observer: fed the stored events, then asked to write what it made of them."""

    def events_stored(self, events: Sequence[TimedEvent], stack_id: StackId) -> None:
        """A batch just written, in the order stored; runs on the sink's writer thread, one batch at
        a time, and must not use the job's connections (`stack_id` holds only during the call)."""

    def store(self, loaded: Loaded) -> None:
        """In the parse's transaction, before the step's `in_transaction`."""


@dataclass(frozen=True, slots=True)
class ParseStep:
    name: str
    tables: tuple[str, ...] = ()
    """Tables the step fills by capture (a `capture_id` column): emptied when a parse starts and when
    it fails, and their new block ranges summarised after the commit, as the records' tables are."""
    observe: Callable[[Loading], LoadObserver] | None = None
    in_transaction: Callable[[Loaded], None] | None = None
    after_commit: Callable[[Committed], None] | None = None
    discard: Callable[[Conn, int], None] | None = None
    """(the failing job's connection, in a transaction; capture id)"""


@functools.cache
def parse_steps() -> tuple[ParseStep, ...]:
    """The listed steps, in the order they run; checked once: a name or a table twice is a mistake."""
    # Imported on first use, not with this module: every listed feature imports this module for
    # `ParseStep`, and the parse job depends on this module alone.
    from stallscope.parse_pipeline import PARSE_STEPS

    names = [step.name for step in PARSE_STEPS]
    tables = [table for step in PARSE_STEPS for table in step.tables]
    if len(set(names)) != len(names) or len(set(tables)) != len(tables):
        raise RuntimeError(f"parse steps repeat a name or a table: {names}, {tables}")
    return PARSE_STEPS
