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

from stallscope.analysis.thread_states import SchedAccumulator
from stallscope.captures.parse_steps import Loaded, Loading, ParseStep
from stallscope.ingest.event_store import StackId
from stallscope.ingest.model import EventKind, TimedEvent
from stallscope.ingest.stack_dictionary import db_text
from stallscope.threads import repository, totals

log = logging.getLogger(__name__)

ON_CPU, OFF_CPU = EventKind.ON_CPU, EventKind.OFF_CPU
BIGINT = re.compile(r"[ \t\n\r\f\v]*[+-]?[0-9]+[ \t\n\r\f\v]*")
"""What PostgreSQL's bigint input reads: ASCII digits, ASCII white space around them."""
INT64 = 1 << 63


class ThreadTotals:
    """One load's scheduler intervals through the accounting, then its breakdowns stored."""

    def __init__(self, loading: Loading) -> None:
        self._capture_id = loading.capture_id
        self._to_epoch_us = loading.to_epoch_us
        self._acc: SchedAccumulator | None = SchedAccumulator()
        self._fed = 0
        self._comms: dict[str, str] = {}
        """Each comm as stored (`db_text`), by the comm parsed: threads are few, intervals many."""

    def events_stored(self, events: Sequence[TimedEvent], stack_id: StackId) -> None:
        if self._acc is None:
            return
        try:
            self._feed(self._acc, events, stack_id)
        except Exception:
            log.exception(
                "thread states of capture %s will not be stored; the view will compute them", self._capture_id
            )
            self._acc = None  # its memory too

    def _feed(self, acc: SchedAccumulator, events: Sequence[TimedEvent], stack_id: StackId) -> None:
        """Each interval as its stored row reads back (`service._intervals`), into the accounting's
        `on_cpu` and `off_cpu` (what its `add` calls; building a `SchedInterval` an event cost as
        much as the accounting)."""
        to_epoch_us, comms = self._to_epoch_us, self._comms
        for event in events:
            kind = event.kind
            if kind is not ON_CPU and kind is not OFF_CPU:  # identity: an enum's hash runs Python code
                continue
            comm = comms.get(event.comm)
            if comm is None:
                comm = comms[event.comm] = db_text(event.comm)
            # tid None: a row the thread states table cannot hold (tid NOT NULL), so the store
            # fails, as it did for such a row read back.
            key = (event.pid, event.tid, comm)
            start_ns, attrs = to_epoch_us(event.start_ns) * 1000, event.attrs
            inferred_ns = _bigint(attrs.get("inferred_duration_ns")) if attrs else None
            if kind is ON_CPU:
                acc.on_cpu(key, start_ns, event.duration_ns, inferred_ns)  # type: ignore[arg-type]
            else:
                waker_tid = event.waker_tid
                waker = None
                if waker_tid is not None:
                    waker = (waker_tid, _json_text(attrs.get("waker_comm")) or "?")
                acc.off_cpu(
                    key,  # type: ignore[arg-type]
                    start_ns,
                    event.duration_ns,
                    event.state,
                    _bigint(attrs.get("wakeup_delay_ns")) if attrs else None,
                    waker,
                    stack_id(event.stack),
                    inferred_ns,
                    _json_text(attrs.get("futex_uaddr")) if attrs else None,
                )
            self._fed += 1

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


def _json_text(value: object) -> str | None:
    """`attrs->>key` of an attribute: a string as it is, anything else as JSON (the importers write
    strings: anything else came from a hand-made file)."""
    if value is None or isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False)


def _bigint(value: object) -> int | None:
    """`(attrs->>key)::bigint` of an attribute; None where the cast has no answer (the importers
    write integers: anything else came from a hand-made file)."""
    if type(value) is int:
        return value if -INT64 <= value < INT64 else None
    if isinstance(value, str) and BIGINT.fullmatch(value):
        return _bigint(int(value))
    return None


PARSE_STEP = ParseStep(name="thread states", tables=("capture_thread_states",), observe=ThreadTotals)
