"""The parse job: stored blob in, samples and tallies out, in one transaction per attempt.

Re-running it replaces a capture's samples atomically (delete and load share a transaction, and an
advisory lock serialises two parses of the same capture), so `reparse` never duplicates samples.
Progress goes through a second, autocommit connection so the UI sees it while the load runs.
"""

from __future__ import annotations

import io
import logging
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import psycopg
from psycopg.types.json import Jsonb

from stallscope.db import raw_connection
from stallscope.ingest.model import ParseError, ParseReport
from stallscope.ingest.registry import HEAD_BYTES, detect_importer, importer_by_name
from stallscope.ingest.sample_store import SampleTally, SampleWriter, timestamp_from_ns
from stallscope.ingest.stack_dictionary import StackDictionary
from stallscope.kit.compression import decompressing_reader, sniff_compression
from stallscope.kit.readers import PrefixedReader, read_head
from stallscope.kit.units import weight_unit
from stallscope.timeseries import refresh_sample_rollup

log = logging.getLogger(__name__)

PROGRESS_INTERVAL_S = 0.5
ADVISORY_LOCK_CLASS = 0x5354  # "ST": keeps our advisory locks apart from anyone else's
UNALIGNED_CLOCK: dict[str, Any] = {
    "mode": "unaligned",
    "offset_ns": 0,
    "note": "capture clock (perf: seconds since boot) shown from 1970-01-01; no wall-clock anchor",
}

Conn = psycopg.Connection[tuple[Any, ...]]


def parse_capture(database_url: str, capture_id: int) -> None:
    """Parse one stored capture; never raises for bad input, which ends as a failed capture."""
    with raw_connection(database_url, autocommit=True) as aux:
        row = aux.execute(
            "SELECT blob_path, filename, format, size_bytes, clock FROM captures WHERE id = %s",
            (capture_id,),
        ).fetchone()
        if row is None:
            log.warning("capture %s vanished before it could be parsed", capture_id)
            return
        blob_path, filename, forced_format, size_bytes, clock = row
        aux.execute(
            "UPDATE captures SET status = 'parsing', progress = 0, error = NULL WHERE id = %s",
            (capture_id,),
        )
        try:
            with raw_connection(database_url) as main:
                final_status = _load(main, aux, capture_id, Path(blob_path), forced_format, size_bytes, clock)
                main.commit()
        except ParseError as exc:
            _fail(aux, capture_id, f"{filename}: {exc}")
            return
        except OSError as exc:
            _fail(aux, capture_id, f"{filename}: the stored upload could not be read: {exc}")
            return
        except Exception as exc:
            log.exception("parsing capture %s failed", capture_id)
            _fail(aux, capture_id, f"{filename}: internal error while parsing: {exc!r}")
            return
        # Fresh statistics: right after a bulk load the planner would guess one row and sort a
        # million on disk instead of hashing them (measured 1.0 s against 0.26 s for 1M samples).
        aux.execute("ANALYZE samples, capture_stack_totals")
        refresh_sample_rollup(aux, capture_id)
        # Ready only now: a flame graph opened the moment the status flips finds every table filled.
        aux.execute("UPDATE captures SET status = %s, progress = 1 WHERE id = %s", (final_status, capture_id))


def _load(
    main: Conn,
    aux: Conn,
    capture_id: int,
    blob_path: Path,
    forced_format: str | None,
    size_bytes: int,
    clock: dict[str, Any],
) -> str:
    """Load the capture's samples and tallies; returns the status it ends in (ready or partial)."""
    main.execute("SELECT pg_advisory_xact_lock(%s, %s)", (ADVISORY_LOCK_CLASS, capture_id))
    main.execute("DELETE FROM samples WHERE capture_id = %s", (capture_id,))
    main.execute("DELETE FROM capture_stack_totals WHERE capture_id = %s", (capture_id,))
    clock = clock if clock.get("mode") else UNALIGNED_CLOCK
    offset_ns = int(clock.get("offset_ns", 0))
    report = ParseReport()
    with open(blob_path, "rb") as raw:
        stream = decompressing_reader(raw, sniff_compression(raw.peek(4)[:4]))
        head = read_head(stream, HEAD_BYTES)
        importer = importer_by_name(forced_format) if forced_format else detect_importer(head)
        text = io.BufferedReader(PrefixedReader(head, stream), buffer_size=1 << 20)
        writer = SampleWriter(main, StackDictionary(aux), capture_id, offset_ns)
        next_progress = time.monotonic() + PROGRESS_INTERVAL_S
        for count, sample in enumerate(importer.parse(text, report)):
            writer.add(sample)
            if count & 0x3FF == 0 and time.monotonic() >= next_progress:
                progress = min(raw.tell() / max(size_bytes, 1), 0.99)
                aux.execute("UPDATE captures SET progress = %s WHERE id = %s", (progress, capture_id))
                next_progress = time.monotonic() + PROGRESS_INTERVAL_S
        writer.finish()
    tally = writer.tally
    if tally.samples == 0:
        reason = "no samples found"
        if report.warnings:
            first = report.warnings[0]
            reason += f" (first problem, line {first.line}: {first.message})"
        raise ParseError(0, reason)
    _finish(main, capture_id, importer.name, report, tally, writer.distinct_stacks, clock, offset_ns)
    return "partial" if report.dropped_lines > 0 or report.truncated else "ready"


def _finish(
    main: Conn,
    capture_id: int,
    format_name: str,
    report: ParseReport,
    tally: SampleTally,
    stack_count: int,
    clock: dict[str, Any],
    offset_ns: int,
) -> None:
    warnings = [{"line": w.line, "message": w.message} for w in report.warnings]
    if report.suppressed_warnings:
        warnings.append({"line": 0, "message": f"{report.suppressed_warnings} more warnings not shown"})
    events = [
        {
            "name": name,
            "samples": count,
            "weight": tally.event_weights[name],
            "unit": weight_unit(name, name in tally.events_with_period),
        }
        for name, count in tally.events.most_common()
    ]
    has_time = tally.first_ns is not None
    main.execute(
        """
        UPDATE captures SET progress = 0.99, error = NULL, format = %s, warnings = %s,
            dropped_lines = %s, truncated = %s, sample_count = %s, stack_count = %s, thread_count = %s,
            events = %s, time_start = %s, time_end = %s, clock = %s, parsed_at = %s
        WHERE id = %s
        """,
        (
            format_name,
            Jsonb(warnings),
            report.dropped_lines,
            report.truncated,
            tally.samples,
            stack_count,
            len(tally.threads),
            Jsonb(events),
            timestamp_from_ns(tally.first_ns, offset_ns) if has_time else None,
            timestamp_from_ns(tally.last_ns, offset_ns) if has_time else None,
            Jsonb(clock),
            datetime.now(UTC),
            capture_id,
        ),
    )


def _fail(aux: Conn, capture_id: int, message: str) -> None:
    log.info("capture %s failed: %s", capture_id, message)
    # A failed re-parse must not leave the previous attempt's samples looking current.
    aux.execute("DELETE FROM samples WHERE capture_id = %s", (capture_id,))
    aux.execute("DELETE FROM capture_stack_totals WHERE capture_id = %s", (capture_id,))
    aux.execute(
        "UPDATE captures SET status = 'failed', error = %s, progress = 0, parsed_at = %s WHERE id = %s",
        (message, datetime.now(UTC), capture_id),
    )
    refresh_sample_rollup(aux, capture_id)  # nor the rollup's copy of them
