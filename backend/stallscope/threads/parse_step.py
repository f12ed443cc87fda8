"""The threads view's part of the parse: whole-capture thread states, fed from the stored events.

The scheduler intervals go through the accounting as the sink stores them, and their breakdowns are
written in the parse's transaction: they commit with the intervals or not at all, where reading the
intervals back after the commit left a moment (and a failure) with intervals and no totals.

Each interval is fed as the view reads its row back (`service._intervals`): the stored time (whole
microseconds, epoch), the stored stack's id, comm as stored, attributes as `attrs->>key` gives them,
so the stored totals are those the view computes from the rows. Optional data: a failure is logged
and leaves the capture without them (the view then computes them from the intervals, only slower).
"""

from __future__ import annotations

import json
import logging
import re
import time
from collections.abc import Sequence

import psycopg

from stallscope.analysis.thread_states import SchedAccumulator, SchedInterval
from stallscope.captures.parse_steps import Loaded, Loading, ParseStep
from stallscope.ingest.clock import EpochMicros
from stallscope.ingest.event_store import StackId
from stallscope.ingest.model import EventKind, TimedEvent
from stallscope.ingest.stack_dictionary import db_text
from stallscope.threads import repository, totals

log = logging.getLogger(__name__)

ON_CPU, OFF_CPU = EventKind.ON_CPU, EventKind.OFF_CPU
BIGINT = re.compile(r"\s*[+-]?\d+\s*")
INT64 = 1 << 63


class ThreadTotals:
    """One load's scheduler intervals through the accounting, then its breakdowns stored."""

    def __init__(self, loading: Loading) -> None:
        self._capture_id = loading.capture_id
        self._to_epoch_us = loading.to_epoch_us
        self._acc: SchedAccumulator | None = SchedAccumulator()
        self._fed = 0

    def events_stored(self, events: Sequence[TimedEvent], stack_id: StackId) -> None:
        acc = self._acc
        if acc is None:
            return
        to_epoch_us, fed = self._to_epoch_us, 0
        try:
            for event in events:
                kind = event.kind
                if kind is ON_CPU or kind is OFF_CPU:  # identity: an enum's hash runs Python code
                    acc.add(stored_interval(event, to_epoch_us, stack_id))
                    fed += 1
        except Exception:
            log.exception(
                "thread states of capture %s will not be stored; the view will compute them", self._capture_id
            )
            self._acc = None  # its memory too
            return
        self._fed += fed

    def store(self, loaded: Loaded) -> None:
        acc, self._acc = self._acc, None
        if acc is None or not self._fed:
            return  # a capture without scheduler intervals has no totals (its parse emptied the table)
        started = time.monotonic()
        conn = loaded.conn
        try:
            with conn.transaction():  # a savepoint: a failure here undoes these rows alone
                futex_waits = repository.futex_wait_stacks(
                    conn, sorted({s for s in acc.stacks() if isinstance(s, int)})
                )
                threads = acc.result(futex_waits.__contains__)
                totals.store(conn, loaded.capture_id, threads)
        except psycopg.OperationalError:
            raise  # the database is away: the parse cannot end either
        except Exception:
            log.exception(
                "thread states of capture %s were not stored; the view will compute them", loaded.capture_id
            )
            return
        log.info(
            "thread states of capture %s: %d threads in %.2f s",
            loaded.capture_id,
            len(threads),
            time.monotonic() - started,
        )


def stored_interval(event: TimedEvent, to_epoch_us: EpochMicros, stack_id: StackId) -> SchedInterval:
    """An on- or off-CPU event as the accounting's input, as its stored row reads back."""
    attrs = event.attrs
    waker_comm = _json_text(attrs.get("waker_comm"))
    return SchedInterval(
        on_cpu=event.kind is ON_CPU,
        pid=event.pid,
        # A row without a tid cannot be stored (its table's tid is NOT NULL): the store fails, as it
        # did for such a row read back.
        tid=event.tid,  # type: ignore[arg-type]
        comm=db_text(event.comm),
        start_ns=to_epoch_us(event.start_ns) * 1000,
        duration_ns=event.duration_ns,
        inferred_ns=_bigint(attrs.get("inferred_duration_ns")),
        state=event.state,
        wakeup_delay_ns=_bigint(attrs.get("wakeup_delay_ns")),
        waker=(event.waker_tid, waker_comm or "?") if event.waker_tid is not None else None,
        stack=stack_id(event.stack),
        futex=_json_text(attrs.get("futex_uaddr")),
    )


def _json_text(value: object) -> str | None:
    """`attrs->>key` of an attribute: a string as it is, anything else as JSON (the importers write
    strings: anything else came from a hand-made file)."""
    if value is None or isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False)


def _bigint(value: object) -> int | None:
    """`(attrs->>key)::bigint` of an attribute; None where the cast has no answer (the importers
    write integers: anything else came from a hand-made file)."""
    if isinstance(value, str) and BIGINT.fullmatch(value):
        value = int(value)
    if isinstance(value, int) and not isinstance(value, bool) and -INT64 <= value < INT64:
        return value
    return None


PARSE_STEP = ParseStep(name="thread states", tables=("capture_thread_states",), observe=ThreadTotals)
