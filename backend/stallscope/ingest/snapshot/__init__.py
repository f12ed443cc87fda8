"""The collector's system snapshot: one JSON document, kept whole and shown as a readable page."""

from __future__ import annotations

from collections.abc import Iterator
from typing import BinaryIO

from stallscope.ingest.json_text import loads
from stallscope.ingest.model import CaptureClock, Document, ParseError, ParseReport, Record
from stallscope.ingest.registry import Importer

MAX_SNAPSHOT_BYTES = 64 << 20
"""Snapshots are kilobytes; anything near this is not one, and is refused rather than loaded."""


def detect(head: bytes) -> bool:
    start = head.lstrip()[:400]
    return start.startswith(b"{") and b'"stallscope"' in start and b'"snapshot"' in start


def parse(stream: BinaryIO, report: ParseReport) -> Iterator[Record]:
    data = stream.read(MAX_SNAPSHOT_BYTES + 1)
    if len(data) > MAX_SNAPSHOT_BYTES:
        raise ParseError(0, f"a snapshot larger than {MAX_SNAPSHOT_BYTES >> 20} MiB is not a snapshot")
    try:
        content = loads(data)
    except ValueError as exc:
        line = getattr(exc, "lineno", 0)
        raise ParseError(line, f"the snapshot is not valid JSON: {exc}") from exc
    if not isinstance(content, dict) or content.get("stallscope") != "snapshot":
        raise ParseError(1, 'not a snapshot document (expected {"stallscope": "snapshot", ...})')
    yield Document(1, "snapshot", content)


IMPORTER = Importer("stallscope-snapshot", detect, parse, CaptureClock.REALTIME)
