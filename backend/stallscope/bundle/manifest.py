"""`manifest.json`: what the bundle holds, where it came from, and how to check it.

The manifest is the bundle's table of contents and its provenance: the Stallscope version that made
it, each capture as recorded (host pseudonym, the commands the collector ran, the clock mapping, the
time span, the counts), the SHA-256 of every other file, and the redaction report (counts of what
was replaced, never the values). `stallscope import` and the console's import read it first.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from stallscope import __version__
from stallscope.bundle.archive import Member
from stallscope.bundle.repository import BundledCapture
from stallscope.kit.units import utc_iso
from stallscope.redaction import Redactor

FORMAT = "stallscope-bundle"
VERSION = 1
NAME = "manifest.json"


def capture_entry(
    number: int, capture: BundledCapture, records_path: str | None, redactor: Redactor
) -> dict[str, Any]:
    """One capture's provenance; free text goes through the redactor, numbers do not."""
    return {
        "number": number,
        "host": redactor.text(capture.host) if capture.host else None,
        "filename": redactor.text(capture.filename),
        "format": capture.format,
        "kind": capture.kind,
        "status": capture.status,
        "recorded_with": redactor.json(capture.meta),
        "clock": redactor.json(capture.clock),
        "time_start": _iso(capture.time_start),
        "time_end": _iso(capture.time_end),
        "samples": capture.sample_count,
        "records": capture.record_counts,
        "raw": {"sha256": capture.sha256, "bytes": capture.size_bytes, "compression": capture.compression},
        "records_file": records_path,
    }


def build(
    *,
    exported_at: datetime,
    incident: dict[str, Any],
    captures: list[dict[str, Any]],
    views: list[dict[str, Any]],
    members: list[Member],
    redaction: dict[str, Any],
    left_out: list[str],
) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "version": VERSION,
        "stallscope_version": __version__,
        "exported_at": _iso(exported_at),
        "incident": incident,
        "captures": captures,
        "views": views,
        "files": [{"path": m.path, "bytes": m.bytes, "sha256": m.sha256} for m in members],
        "redaction": redaction,
        "left_out": left_out,
    }


def _iso(moment: datetime | None) -> str | None:
    return None if moment is None else utc_iso(moment)
