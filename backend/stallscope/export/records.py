"""One capture's stored records as a `stallscope-records` file: what a bundle carries so that another
console can rebuild the capture's views exactly, without the raw upload (optional in a bundle, and
rewritten by redaction) and without aligning any clock again.

The format, version 1
=====================

A gzip stream of UTF-8 JSON Lines (strict JSON: no NaN). Line 1 is the header, an object::

    {"format": "stallscope-records", "version": 1, "capture": {
        "filename": …, "host": … or null, "format": the importer that parsed the upload, "kind": …,
        "status": …, "clock": the capture's clock mapping (mode, offset_ns, shift_ns, note, …),
        "meta": the collector's metadata (its version, the commands it ran),
        "timed": false when nothing in the capture had a time (collapsed stacks, DTrace),
        "time_start_ns", "time_end_ns": its span, epoch ns or null,
        "sample_events": [{"name", "samples", "weight", "unit"}] (unit `samples`: no period),
        "counts": {"samples", "stacks", "threads", "records": {…per kind…}},
        "source": {"sha256", "size_bytes"} of the upload,
        "report": {"dropped_lines", "truncated", "limits": [{"line", "message"}], "warnings": […]}}}

Every other line is a JSON array whose first element names what it is. First the dictionary, each
distinct frame and stack once, ids local to the file (0, 1, 2… in the order written):

    ["frame", id, kind, name]                      kind: user | kernel | jit | inline | unknown
    ["stack", id, [frame id, …]]                   frames root first; [] is the empty stack

then the records, each an exact copy of one stored row:

    ["sample", t, pid, tid, comm, cpu, event, weight, stack id]
    ["event", t, duration_ns, kind, name, pid, tid, comm, cpu, state, stack id, waker_tid, args,
        result, attrs]                             kind: off-cpu | on-cpu | syscall | fault | …
    ["series", id, name, {label: value}, unit]     before its points
    ["point", series id, t, value]                 value a number, or "NaN", "Infinity", "-Infinity"
    ["document", kind, content]                    content: an object (a system snapshot…)

`t` is the stored wall-clock instant in nanoseconds since the epoch (a multiple of 1,000: the
database keeps microseconds), already aligned, shifted and exact; null in a capture that is not
`timed`. Any field of a stored row that may be empty is null when it is. Readers skip a line they
cannot read, say which, and keep the rest; a line whose first element they do not know is skipped
with a warning, so a minor addition need not raise the version.

What is not carried: derived tables (per-stack totals, thread states, timeline rollups, findings'
digests), which the importing console computes from the records as it does for any upload, and the
ids of rows, frames and stacks, which are the importing console's own.

Redaction: when `redact` is given, every string that could carry a secret goes through it — comm,
host, file name, event and metric names, frame names (a redactor keeps symbols unless asked to hash
them), label values, event arguments and results, string values inside attributes, documents,
metadata, clock notes and warnings. Object keys are names (sysctl keys, label names) and are kept;
so are kinds, states, units, the clock's mode and numbers.
"""

from __future__ import annotations

import gzip
import json
import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, BinaryIO

from sqlalchemy.orm import Session

from stallscope.export import records_repository as repository
from stallscope.ingest.records.format import (
    DOCUMENT,
    EVENT,
    FORMAT,
    FRAME,
    POINT,
    SAMPLE,
    SERIES,
    STACK,
    VERSION,
)
from stallscope.kit.units import epoch_ns

Redact = Callable[[str], str]

COMPRESS_LEVEL = 6
MAX_CACHED_TEXTS = 100_000
"""Distinct strings whose redacted form is remembered (comms and names repeat on every row)."""
CLOCK_WORDS = frozenset({"mode", "capture_clock", "perf_clock"})
"""Clock mapping fields that are the console's own vocabulary, which views read: never redacted."""
LIMIT_COUNT_PREFIX = "cut."
"""`record_counts` keys of the bounds a parse reached: one leading warning each (`ingest.record_sink`)."""


@dataclass(slots=True)
class WrittenRecords:
    """What one capture's file holds, for a bundle's manifest."""

    frames: int = 0
    stacks: int = 0
    samples: int = 0
    events: int = 0
    series: int = 0
    points: int = 0
    documents: int = 0


def write_capture_records(
    session: Session,
    capture_id: int,
    out: BinaryIO,
    redact: Redact | None = None,
    redact_document: Callable[[Any], Any] | None = None,
) -> WrittenRecords:
    """Stream capture `capture_id`'s stored rows to `out` as a `stallscope-records` file (see above).

    `redact_document`, when given, redacts each document (a snapshot) whole instead of string by
    string: a redactor that reads keys knows an `environment` value or a `password` is a secret.

    Reads in batches from server-side cursors inside the session's transaction, so memory holds one
    batch and the capture's dictionary of stacks, whatever the capture's size. `out` is not closed.
    """
    conn = repository.psycopg_connection(session)
    texts = _Texts(redact)
    written = WrittenRecords()
    with gzip.GzipFile(fileobj=out, mode="wb", compresslevel=COMPRESS_LEVEL, mtime=0) as gz:
        header, timed = _header(repository.capture_row(conn, capture_id), texts)
        gz.write(_encode([_dumps(header)]))
        stack_ids = _write_dictionary(gz, conn, capture_id, texts, written)
        _write_samples(gz, conn, capture_id, texts, stack_ids, timed, written)
        _write_events(gz, conn, capture_id, texts, stack_ids, timed, written)
        _write_metrics(gz, conn, capture_id, texts, written)
        for rows in repository.documents(conn, capture_id):
            redacted = redact_document or texts.json
            gz.write(_encode([_dumps([DOCUMENT, kind, redacted(content)]) for kind, content in rows]))
            written.documents += len(rows)
    return written


def _header(row: tuple[Any, ...], texts: _Texts) -> tuple[dict[str, Any], bool]:
    (filename, host, format_name, kind, status, clock, meta, sample_events, record_counts, warnings,
     dropped_lines, truncated, sample_count, stack_count, thread_count, time_start, time_end, sha256,
     size_bytes) = row  # fmt: skip
    record_counts = record_counts or {}
    limits = sum(1 for key, n in record_counts.items() if key.startswith(LIMIT_COUNT_PREFIX) and n)
    warnings = [
        {"line": w.get("line", 0), "message": texts.text(str(w.get("message", "")))} for w in warnings or []
    ]
    capture = {
        "filename": texts.text(filename),
        "host": texts.text(host) if host is not None else None,
        "format": format_name,
        "kind": kind,
        "status": status,
        "clock": {**texts.json(clock or {}), **{k: v for k, v in (clock or {}).items() if k in CLOCK_WORDS}},
        "meta": texts.json(meta or {}),
        "timed": time_start is not None,
        "time_start_ns": epoch_ns(time_start) if time_start is not None else None,
        "time_end_ns": epoch_ns(time_end) if time_end is not None else None,
        "sample_events": [{**e, "name": texts.text(str(e.get("name", "")))} for e in sample_events or []],
        "counts": {
            "samples": sample_count,
            "stacks": stack_count,
            "threads": thread_count,
            "records": record_counts,
        },
        "source": {"sha256": sha256, "size_bytes": size_bytes},
        "report": {
            "dropped_lines": dropped_lines,
            "truncated": truncated,
            "limits": warnings[:limits],
            "warnings": warnings[limits:],
        },
    }
    return {"format": FORMAT, "version": VERSION, "capture": capture}, time_start is not None


def _write_dictionary(
    gz: gzip.GzipFile, conn: repository.Conn, capture_id: int, texts: _Texts, written: WrittenRecords
) -> dict[int, int]:
    """Write the capture's frames and stacks under ids local to the file; returns stack id → local id."""
    frame_ids: dict[int, int] = {}
    for rows in repository.frames(conn, capture_id):
        lines = []
        for frame_id, kind, name in rows:
            local = frame_ids[frame_id] = len(frame_ids)
            lines.append(_dumps([FRAME, local, kind, texts.text(name)]))
        gz.write(_encode(lines))
    stack_ids: dict[int, int] = {}
    for rows in repository.stacks(conn, capture_id):
        lines = []
        for stack_id, frames in rows:
            local = stack_ids[stack_id] = len(stack_ids)
            lines.append(f'["{STACK}",{local},[{",".join(str(frame_ids[f]) for f in frames)}]]')
        gz.write(_encode(lines))
    written.frames, written.stacks = len(frame_ids), len(stack_ids)
    return stack_ids


def _write_samples(
    gz: gzip.GzipFile,
    conn: repository.Conn,
    capture_id: int,
    texts: _Texts,
    stack_ids: dict[int, int],
    timed: bool,
    written: WrittenRecords,
) -> None:
    # The hot loop of an export (a million samples is an ordinary capture): one f-string per row,
    # each distinct comm and event encoded once.
    quoted = texts.quoted
    for rows in repository.samples(conn, capture_id):
        lines = [
            f'["{SAMPLE}",{t * 1000 if timed else "null"},{_n(pid)},{_n(tid)},{quoted(comm)},{_n(cpu)},'
            f"{quoted(event)},{weight},{stack_ids[stack_id]}]"
            for t, pid, tid, comm, cpu, event, weight, stack_id in rows
        ]
        gz.write(_encode(lines))
        written.samples += len(rows)


def _write_events(
    gz: gzip.GzipFile,
    conn: repository.Conn,
    capture_id: int,
    texts: _Texts,
    stack_ids: dict[int, int],
    timed: bool,
    written: WrittenRecords,
) -> None:
    text = texts.text
    for rows in repository.events(conn, capture_id):
        lines = []
        for row in rows:
            (
                t,
                duration_ns,
                kind,
                name,
                pid,
                tid,
                comm,
                cpu,
                state,
                stack_id,
                waker_tid,
                args,
                result,
                attrs,
            ) = row
            fields = [
                EVENT,
                t * 1000 if timed else None,
                duration_ns,
                kind,
                text(name),
                pid,
                tid,
                text(comm),
                cpu,
                state,
                stack_ids[stack_id] if stack_id is not None else None,
                waker_tid,
                text(args) if args is not None else None,
                text(result) if result is not None else None,
                texts.json(attrs) if attrs is not None else None,
            ]
            lines.append(_dumps(fields))
        gz.write(_encode(lines))
        written.events += len(rows)


def _write_metrics(
    gz: gzip.GzipFile, conn: repository.Conn, capture_id: int, texts: _Texts, written: WrittenRecords
) -> None:
    series_ids: dict[int, int] = {}
    for rows in repository.series(conn, capture_id):
        lines = []
        for series_id, name, labels, unit in rows:
            local = series_ids[series_id] = len(series_ids)
            lines.append(_dumps([SERIES, local, texts.text(name), texts.json(labels or {}), unit]))
        gz.write(_encode(lines))
    for rows in repository.points(conn, capture_id):
        lines = [
            f'["{POINT}",{series_ids[series_id]},{t * 1000},{_number(value)}]' for series_id, t, value in rows
        ]
        gz.write(_encode(lines))
        written.points += len(rows)
    written.series = len(series_ids)


class _Texts:
    """The redactor applied to strings, each distinct one once (a bounded memo)."""

    def __init__(self, redact: Redact | None) -> None:
        self._redact = redact
        self._plain: dict[str, str] = {}
        self._quoted: dict[str | None, str] = {None: "null"}

    def text(self, value: str) -> str:
        if self._redact is None:
            return value
        found = self._plain.get(value)
        if found is None:
            if len(self._plain) >= MAX_CACHED_TEXTS:
                self._plain.clear()
            found = self._plain[value] = self._redact(value)
        return found

    def quoted(self, value: str | None) -> str:
        """`value` redacted and as a JSON string (null for None)."""
        found = self._quoted.get(value)
        if found is None:
            assert value is not None
            if len(self._quoted) >= MAX_CACHED_TEXTS:
                self._quoted = {None: "null"}
            found = self._quoted[value] = _dumps(self.text(value))
        return found

    def json(self, value: Any) -> Any:
        """A JSON value with every string in it redacted, object keys kept."""
        if self._redact is None:
            return value
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, dict):
            return {key: self.json(item) for key, item in value.items()}
        if isinstance(value, list):
            return [self.json(item) for item in value]
        return value


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def _encode(lines: Iterable[str]) -> bytes:
    """Lines as UTF-8; a lone surrogate (only a redactor could make one) is written as its JSON escape."""
    return ("\n".join(lines) + "\n").encode("utf-8", "backslashreplace")


def _n(value: int | None) -> str:
    return "null" if value is None else str(value)


def _number(value: float) -> str:
    if math.isfinite(value):
        return repr(value)
    return '"NaN"' if math.isnan(value) else '"Infinity"' if value > 0 else '"-Infinity"'
