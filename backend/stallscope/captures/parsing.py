"""The parse job: stored blob in, samples and tallies out, in one transaction per attempt.

Re-running it replaces a capture's samples atomically (delete and load share a transaction, and an
advisory lock serialises two parses of the same capture), so `reparse` never duplicates samples.
Progress goes through a second, autocommit connection so the UI sees it while the load runs.

What features derive from the records (rollups, slices, thread states, trees, findings) are their
registered steps (`parse_steps`), run here at their moments without being named.
"""

from __future__ import annotations

import gc
import io
import logging
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any

import psycopg
from psycopg.pq import TransactionStatus
from psycopg.types.json import Jsonb

from stallscope.blobs.configured import blob_store
from stallscope.blobs.store import BlobStoreUnavailable
from stallscope.captures.host_clock import host_anchors, realign_host
from stallscope.captures.parse_claim import ClaimedCapture, ParseHeartbeat, claim_capture
from stallscope.captures.parse_steps import Committed, Loaded, Loading, LoadObserver, ParseStep, parse_steps
from stallscope.config import get_settings
from stallscope.db import raw_connection
from stallscope.ingest.appmetrics.time_option import TIME_COLUMN_KEY, with_time_column
from stallscope.ingest.clock import clock_mapping
from stallscope.ingest.limits import CaptureLimits, setting_name
from stallscope.ingest.model import CaptureClock, ParseError, ParseReport
from stallscope.ingest.record_sink import RecordSink
from stallscope.ingest.registry import HEAD_BYTES, detect_importer, importer_by_name, is_blank
from stallscope.ingest.stack_dictionary import StackDictionary
from stallscope.kit.compression import decompressing_reader, sniff_compression
from stallscope.kit.readers import PrefixedReader, read_head
from stallscope.kit.stream_decoder import CorruptCompression

log = logging.getLogger(__name__)

PROGRESS_INTERVAL_S = 0.5
ADVISORY_LOCK_CLASS = 0x5354  # "ST": keeps our advisory locks apart from anyone else's
RECORD_TABLES = (
    "samples",
    "capture_stack_totals",
    "events",
    "metrics",
    "metric_series",
    "capture_documents",
)
"""What the sink writes for a capture; with the steps' tables, everything a parse writes for it, all
of which a re-parse replaces in one transaction."""

Conn = psycopg.Connection[tuple[Any, ...]]


def capture_tables(steps: tuple[ParseStep, ...]) -> list[str]:
    """Every table a parse fills by capture: the records' and the steps'."""
    return [*RECORD_TABLES, *(table for step in steps for table in step.tables)]


def parse_capture(database_url: str, capture_id: int, attempt: int | None = None) -> None:
    """Parse one stored capture; never raises for bad input, which ends as a failed capture.

    Raises only when the database or the blob store is away: then nothing can be recorded (or
    read), and the capture's stopped heartbeat gets it queued again once they are back.
    """
    with raw_connection(database_url, autocommit=True) as aux:
        stall_timeout_s = get_settings().parse_stall_timeout_s
        claimed = claim_capture(aux, capture_id, attempt, stall_timeout_s)
        if claimed is None:
            log.info("capture %s: parse attempt %s is stale or already handled; skipped", capture_id, attempt)
            return
        with ParseHeartbeat(database_url, capture_id, claimed.attempt, stall_timeout_s):
            _parse_claimed(database_url, aux, capture_id, claimed)


def _parse_claimed(database_url: str, aux: Conn, capture_id: int, claimed: ClaimedCapture) -> None:
    filename, attempt = claimed.filename, claimed.attempt
    steps = parse_steps()
    try:
        # The stack dictionary commits alone (see `stack_dictionary`), on a connection of its own: its
        # batches run on the sink's writer thread, while progress goes through `aux` from this one.
        with raw_connection(database_url) as main, raw_connection(database_url, autocommit=True) as stacks:
            if not _hold_capture(main, capture_id):
                log.info("capture %s was deleted before its parse wrote anything", capture_id)
                return
            started = time.monotonic()
            final_status = _load(
                main,
                aux,
                stacks,
                steps,
                capture_id,
                claimed.sha256,
                claimed.forced_format,
                claimed.size_bytes,
                claimed.clock,
            )
            main.commit()
            loaded_s = time.monotonic() - started  # parse and store, committed (the benchmarks read it)
            log.info("capture %s: loaded in %.2f s", capture_id, loaded_s, extra={"load_seconds": loaded_s})
    except ParseError as exc:
        _fail(aux, capture_id, attempt, f"{filename}: {exc}")
        return
    except (psycopg.OperationalError, BlobStoreUnavailable):
        raise  # nothing wrong with the capture: its stopped heartbeat gets it parsed again later
    except OSError as exc:
        _fail(aux, capture_id, attempt, f"{filename}: the stored upload could not be read: {exc}")
        return
    except Exception as exc:
        log.exception("parsing capture %s failed", capture_id)
        _fail(aux, capture_id, attempt, f"{filename}: {internal_failure(exc)}")
        return
    _summarize_block_ranges(aux, capture_tables(steps))
    # Ready only after these: a flame graph opened the moment the status flips finds every table filled.
    committed = Committed(database_url, aux, capture_id)
    for step in steps:
        if step.after_commit is not None:
            step.after_commit(committed)
    ended = aux.execute(
        "UPDATE captures SET status = %s, progress = 1 WHERE id = %s AND parse_attempt = %s "
        "RETURNING clock, format",
        (final_status, capture_id, attempt),
    ).fetchone()
    if ended is not None:
        realign_host(aux, capture_id, ended[0] or {}, ended[1])


def _hold_capture(main: Conn, capture_id: int) -> bool:
    """Hold the capture row (FOR KEY SHARE) for the parse's transaction; False when it is gone.

    `samples`, `events` and `metrics` have no foreign key to their capture (on TimescaleDB one would
    lock `captures` against every write whenever a parse adds a chunk), so a purge deletes their rows
    itself: it deletes the capture row first, which waits for this hold, so its deletes see every row
    this parse commits. Progress updates on the row still go through (they change no key)."""
    row = main.execute("SELECT 1 FROM captures WHERE id = %s FOR KEY SHARE", (capture_id,)).fetchone()
    return row is not None


BRIN_INDEXES = """
    SELECT i.indexrelid::regclass::text FROM pg_index i
    JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am a ON a.oid = c.relam
    WHERE a.amname = 'brin' AND i.indrelid::regclass::text = ANY(%s)
"""
SUMMARIZE_LOCK_TIMEOUT = "1s"


def _summarize_block_ranges(aux: Conn, tables: list[str]) -> None:
    """Index the block ranges the parse has just filled, in the BRIN indexes of the tables it writes.

    A range no summary covers yet matches every query, so until autovacuum reached them a timeline
    zoom right after an upload read thirteen times the rows it needed (23 ms against 7 ms per
    track). Autovacuum summarizes them too: when it holds a table, that table is left to it.
    """
    for (index,) in aux.execute(BRIN_INDEXES, (tables,)).fetchall():
        try:
            with aux.transaction():
                aux.execute(f"SET LOCAL lock_timeout = '{SUMMARIZE_LOCK_TIMEOUT}'")
                aux.execute("SELECT brin_summarize_new_values(%s::regclass)", (index,))
        except psycopg.errors.LockNotAvailable:
            log.info("%s: busy (autovacuum?), its new block ranges are left to autovacuum", index)


def _load(
    main: Conn,
    aux: Conn,
    stacks: Conn,
    steps: tuple[ParseStep, ...],
    capture_id: int,
    sha256: str,
    forced_format: str | None,
    size_bytes: int,
    clock_info: dict[str, Any],
) -> str:
    """Load the capture's records, tallies and the steps' tables; returns the status it ends in (ready,
    partial, empty)."""
    main.execute("SELECT pg_advisory_xact_lock(%s, %s)", (ADVISORY_LOCK_CLASS, capture_id))
    for table in capture_tables(steps):
        main.execute(f"DELETE FROM {table} WHERE capture_id = %s", (capture_id,))
    limits = CaptureLimits.from_settings()
    report = ParseReport(max_warnings=limits.warnings)
    with blob_store().open(sha256) as raw:
        # Damage in the compression ends the stream cleanly and is told to `report`.
        stream = decompressing_reader(raw, sniff_compression(raw.peek(4)[:4]), report)
        try:
            head = read_head(stream, HEAD_BYTES)
        except CorruptCompression as exc:  # nothing at all decompresses
            raise ParseError(0, str(exc)) from exc
        importer = importer_by_name(forced_format) if forced_format else detect_importer(head)
        importer = with_time_column(importer, clock_info.get(TIME_COLUMN_KEY))
        host = host_anchors(main, capture_id) if importer.clock is CaptureClock.MONOTONIC else None
        mapping = clock_mapping(importer.clock, clock_info, head, host)
        text = io.BufferedReader(PrefixedReader(head, stream), buffer_size=1 << 20)
        dictionary = StackDictionary(stacks, limits, report.stack_codes)
        to_epoch_us = mapping.to_epoch_us()
        loading = Loading(capture_id, to_epoch_us)
        observers = [(step, step.observe(loading)) for step in steps if step.observe is not None]
        events_stored = [observer.events_stored for _, observer in observers]
        sink = RecordSink(main, dictionary, capture_id, to_epoch_us, limits, events_stored)
        next_progress = time.monotonic() + PROGRESS_INTERVAL_S
        with sink, collector_for_bulk_load() as settle:
            for count, record in enumerate(importer.parse(text, report)):
                sink.add(record)
                if count & 0x3FF == 0 and time.monotonic() >= next_progress:
                    progress = min(raw.tell() / max(size_bytes, 1), 0.98)
                    aux.execute("UPDATE captures SET progress = %s WHERE id = %s", (progress, capture_id))
                    next_progress = time.monotonic() + PROGRESS_INTERVAL_S
                    settle()
            sink.finish(report)
    format_name, clock = importer.name, mapping.as_json(clock_info)
    if report.origin is not None:  # re-exported records: the capture keeps its own format and alignment
        format_name = report.origin.format
        clock = {
            **report.origin.clock,
            "shift_ns": clock["shift_ns"],
            "capture_clock": clock["capture_clock"],
        }
    empty = sink.total == 0 and is_blank(head) and not report.warnings  # nothing in it: not a failure
    if sink.total == 0 and not empty:
        reason = "no records found"
        if report.warnings:
            first = report.warnings[0]
            reason += f" (first problem, {first})"
        raise ParseError(0, reason)
    _finish(main, capture_id, format_name, report, sink, clock)
    _run_in_transaction(Loaded(main, capture_id, empty), steps, {step.name: obs for step, obs in observers})
    if empty:
        return "empty"
    return "partial" if report.partial else "ready"


def _run_in_transaction(
    loaded: Loaded, steps: tuple[ParseStep, ...], observers: dict[str, LoadObserver]
) -> None:
    """The steps' parts in the parse's transaction, after the capture's row: in the steps' order, each
    step's observer storing what it made of the records before its `in_transaction`."""
    for step in steps:
        observer = observers.get(step.name)
        if observer is not None:
            observer.store(loaded)
        if step.in_transaction is not None:
            step.in_transaction(loaded)
        if loaded.conn.info.transaction_status is TransactionStatus.INERROR:
            # An error caught outside a savepoint: the commit would roll everything back and the
            # capture would end ready with nothing in it.
            raise RuntimeError(f"the parse step {step.name!r} left the parse's transaction failed")


YOUNG_OBJECTS = 100_000
"""Container objects a load may allocate between two young collections (the collector's default is
700): a batch of samples lives until it is written, and each young collection walked it again."""


@contextmanager
def collector_for_bulk_load() -> Iterator[Callable[[], None]]:
    """The cyclic garbage collector set for a load; yields `settle`, which takes what has lived so
    far out of its sight.

    A parse keeps the importer's caches and the stacks it has met alive for its whole length, and
    every full collection walked all of them again, and the process's own objects: with the young
    collections, a tenth of the load of a capture of deep stacks. Frozen objects are skipped until
    the load ends; garbage is still collected (the few cycles that die after being frozen wait for
    the end), and everything is as it was afterwards. The collector is the process's: this assumes
    one load at a time in it, as the worker's processes run one parse at a time.
    """
    thresholds = gc.get_threshold()
    gc.set_threshold(max(YOUNG_OBJECTS, thresholds[0]), *thresholds[1:])
    frozen_by_others = gc.get_freeze_count() > 0  # on purpose: leave theirs as they are
    if not frozen_by_others:
        gc.freeze()  # the process's own objects (a worker's whole app) first
    try:
        yield (lambda: None) if frozen_by_others else gc.freeze
    finally:
        if not frozen_by_others:
            gc.unfreeze()
        gc.set_threshold(*thresholds)


def _finish(
    main: Conn,
    capture_id: int,
    format_name: str,
    report: ParseReport,
    sink: RecordSink,
    clock: dict[str, Any],
) -> None:
    # The bounds reached come first: they say what the capture lacks before any single line does.
    warnings = [{"line": w.line, "message": w.message} for w in (*report.limits_reached, *report.warnings)]
    if report.suppressed_warnings:
        kept = f"{setting_name('max_warnings')}={report.max_warnings}"
        hidden = f"{report.suppressed_warnings} more warnings not shown ({kept})"
        warnings.append({"line": 0, "message": hidden})
    span = sink.time_span()
    main.execute(
        """
        UPDATE captures SET progress = 0.99, error = NULL, format = %s, warnings = %s,
            dropped_lines = %s, truncated = %s, sample_count = %s, stack_count = %s, thread_count = %s,
            events = %s, record_counts = %s, time_start = %s, time_end = %s, clock = %s, parsed_at = %s
        WHERE id = %s
        """,
        (
            format_name,
            Jsonb(warnings),
            report.dropped_lines,
            report.truncated,
            sink.samples.tally.samples,
            sink.samples.distinct_stacks,
            sink.thread_count(),
            Jsonb(sink.sample_events()),
            Jsonb(sink.counts()),
            span[0] if span else None,
            span[1] if span else None,
            Jsonb(clock),
            datetime.now(UTC),
            capture_id,
        ),
    )


def internal_failure(exc: Exception) -> str:
    """What the capture page says of a parse that failed on our side: the reason in words, its first
    line only (a database error goes on with its context), not the exception's class and repr."""
    lines = str(exc).strip().splitlines()
    reason = lines[0].strip() if lines else "no reason given"
    return f"Stallscope failed while reading it (an internal error, logged on the server): {reason}"


def _fail(aux: Conn, capture_id: int, attempt: int, message: str) -> None:
    log.info("capture %s failed: %s", capture_id, message)
    # One transaction: nobody sees the capture failed while an earlier parse's rows are still there.
    with aux.transaction():
        failed = aux.execute(
            "UPDATE captures SET status = 'failed', error = %s, progress = 0, parsed_at = %s "
            "WHERE id = %s AND parse_attempt = %s",
            (message, datetime.now(UTC), capture_id, attempt),
        )
        if failed.rowcount:  # else a newer attempt owns the capture and its results
            discard_results(aux, capture_id)


def discard_results(aux: Conn, capture_id: int) -> None:
    """Remove what earlier parses wrote: a failed re-parse must not leave them looking current."""
    steps = parse_steps()
    for table in capture_tables(steps):
        aux.execute(f"DELETE FROM {table} WHERE capture_id = %s", (capture_id,))
    for step in steps:
        if step.discard is not None:
            step.discard(aux, capture_id)
