"""The parse job: stored blob in, samples and tallies out, in one transaction per attempt.

Re-running it replaces a capture's samples atomically (delete and load share a transaction, and an
advisory lock serialises two parses of the same capture), so `reparse` never duplicates samples.
Progress goes through a second, autocommit connection so the UI sees it while the load runs.
"""

from __future__ import annotations

import gc
import io
import logging
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import psycopg
from psycopg.types.json import Jsonb
from sqlalchemy import text

from stallscope.captures.host_clock import host_anchors, realign_host
from stallscope.captures.parse_claim import ClaimedCapture, ParseHeartbeat, claim_capture
from stallscope.config import get_settings
from stallscope.db import get_session_factory, raw_connection
from stallscope.findings.service import after_parse
from stallscope.flame.callsite_trees import build_and_store
from stallscope.heatmap.slices import store_sample_slices
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
from stallscope.threads.service import store_capture_totals
from stallscope.timeline.rollups import refresh_timeline_rollups
from stallscope.timeseries import analyze_parsed, discard_sample_rollup, store_sample_rollup

log = logging.getLogger(__name__)

PROGRESS_INTERVAL_S = 0.5
ADVISORY_LOCK_CLASS = 0x5354  # "ST": keeps our advisory locks apart from anyone else's
CAPTURE_TABLES = (
    "samples",
    "capture_stack_totals",
    "events",
    "metrics",
    "metric_series",
    "capture_documents",
    "capture_thread_states",
    "capture_callsite_trees",
    "timeline_rollups",
    "sample_slices",
    "sample_rollup_captures",
    "capture_digests",
)
"""Everything a parse writes for a capture; a re-parse replaces all of it in one transaction."""

Conn = psycopg.Connection[tuple[Any, ...]]


def parse_capture(database_url: str, capture_id: int, attempt: int | None = None) -> None:
    """Parse one stored capture; never raises for bad input, which ends as a failed capture.

    Raises only when the database itself is away: then nothing can be recorded, and the capture's
    stopped heartbeat gets it queued again once the database is back.
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
                capture_id,
                Path(claimed.blob_path),
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
    except OSError as exc:
        _fail(aux, capture_id, attempt, f"{filename}: the stored upload could not be read: {exc}")
        return
    except psycopg.OperationalError:
        raise
    except Exception as exc:
        log.exception("parsing capture %s failed", capture_id)
        _fail(aux, capture_id, attempt, f"{filename}: {internal_failure(exc)}")
        return
    analyze_parsed(aux, capture_id)
    _summarize_block_ranges(aux)
    _store_thread_states(database_url, capture_id)
    _store_callsite_tree(database_url, capture_id)
    # Ready only now: a flame graph opened the moment the status flips finds every table filled.
    after_parse(get_session_factory(database_url), capture_id)  # before ready, as every table above
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


def _summarize_block_ranges(aux: Conn) -> None:
    """Index the block ranges the parse has just filled, in the BRIN indexes of the tables it writes.

    A range no summary covers yet matches every query, so until autovacuum reached them a timeline
    zoom right after an upload read thirteen times the rows it needed (23 ms against 7 ms per
    track). Autovacuum summarizes them too: when it holds a table, that table is left to it.
    """
    for (index,) in aux.execute(BRIN_INDEXES, (list(CAPTURE_TABLES),)).fetchall():
        try:
            with aux.transaction():
                aux.execute(f"SET LOCAL lock_timeout = '{SUMMARIZE_LOCK_TIMEOUT}'")
                aux.execute("SELECT brin_summarize_new_values(%s::regclass)", (index,))
        except psycopg.errors.LockNotAvailable:
            log.info("%s: busy (autovacuum?), its new block ranges are left to autovacuum", index)


def _store_thread_states(database_url: str, capture_id: int) -> None:
    """The capture's whole-range thread states, read back by the threads view instead of recomputed.

    Optional: when it fails the view computes them from the intervals, only slower.
    """
    started = time.monotonic()
    try:
        with get_session_factory(database_url)() as session:
            threads = store_capture_totals(session, capture_id)
            session.commit()
    except Exception:
        log.exception("thread states of capture %s were not stored; the view will compute them", capture_id)
        return
    if threads:
        log.info(
            "thread states of capture %s: %d threads in %.2f s",
            capture_id,
            threads,
            time.monotonic() - started,
        )


def _store_callsite_tree(database_url: str, capture_id: int) -> None:
    """The capture's call-site tree, so the first flame graph of it does not build it.

    Optional: when it fails the first view builds (and stores) it, only slower.
    """
    started = time.monotonic()
    try:
        with get_session_factory(database_url)() as session:
            parsed_at = session.execute(
                text("SELECT parsed_at FROM captures WHERE id = :id"), {"id": capture_id}
            ).scalar_one_or_none()
            if parsed_at is None:
                return
            tree = build_and_store(session, capture_id, parsed_at)
            session.commit()
    except Exception:
        log.exception(
            "the call-site tree of capture %s was not stored; its first view will build it", capture_id
        )
        return
    log.info(
        "call-site tree of capture %s: %d nodes in %.2f s",
        capture_id,
        tree.node_count,
        time.monotonic() - started,
    )


def _load(
    main: Conn,
    aux: Conn,
    stacks: Conn,
    capture_id: int,
    blob_path: Path,
    forced_format: str | None,
    size_bytes: int,
    clock_info: dict[str, Any],
) -> str:
    """Load the capture's records and tallies; returns the status it ends in (ready, partial, empty)."""
    main.execute("SELECT pg_advisory_xact_lock(%s, %s)", (ADVISORY_LOCK_CLASS, capture_id))
    for table in CAPTURE_TABLES:
        main.execute(f"DELETE FROM {table} WHERE capture_id = %s", (capture_id,))
    limits = CaptureLimits.from_settings()
    report = ParseReport(max_warnings=limits.warnings)
    with open(blob_path, "rb") as raw:
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
        sink = RecordSink(main, dictionary, capture_id, mapping.to_epoch_us(), limits)
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
    if sink.total == 0:
        if is_blank(head) and not report.warnings:  # nothing in it at all: not a failure
            _finish(main, capture_id, format_name, report, sink, clock)
            return "empty"
        reason = "no records found"
        if report.warnings:
            first = report.warnings[0]
            reason += f" (first problem, {first})"
        raise ParseError(0, reason)
    _finish(main, capture_id, format_name, report, sink, clock)
    refresh_timeline_rollups(main, capture_id)
    store_sample_slices(main, capture_id)
    return "partial" if report.partial else "ready"


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
    store_sample_rollup(main, capture_id)  # after parsed_at: its mark names this parse


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
    for table in CAPTURE_TABLES:
        aux.execute(f"DELETE FROM {table} WHERE capture_id = %s", (capture_id,))
    discard_sample_rollup(aux, capture_id)  # nor the rollup's copy of them
