"""The names a `stallscope-records` file is written with; the layout itself is specified in
`stallscope.export.records`, which writes it."""

from __future__ import annotations

FORMAT = "stallscope-records"
VERSION = 1
"""Raised when the layout changes; an importer reads every version up to its own."""

FRAME = "frame"
STACK = "stack"
SAMPLE = "sample"
EVENT = "event"
SERIES = "series"
POINT = "point"
DOCUMENT = "document"

NON_FINITE = {"NaN": float("nan"), "Infinity": float("inf"), "-Infinity": float("-inf")}
"""Metric values JSON has no number for, written as these strings so the file stays strict JSON."""
