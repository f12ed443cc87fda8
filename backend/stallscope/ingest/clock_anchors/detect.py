"""Tell an anchor file from the tables and JSON the metrics importers read.

A header (or the first object's keys) must name exactly one capture-clock column and one realtime
column, with nothing beside them but labels (`columns.TEXT_COLUMNS`): `epoch_s,uptime_s,load` is a
metrics table whose time column happens to sit beside an uptime counter, and stays one.
"""

from __future__ import annotations

import re

from stallscope.ingest.clock_anchors.columns import find_anchor_columns
from stallscope.ingest.text_lines import sniff_lines

_KEY = re.compile(rb'"([^"\\]{1,64})"\s*:')
_DELIMITERS = (b",", b"\t", b";")


def detect(head: bytes) -> bool:
    start = head.lstrip()
    if start.startswith((b"{", b"[")):
        return _json_anchor(start[:4096])
    lines = sniff_lines(head, 5)
    if not lines:
        return False
    header = next((line for line in lines if line.strip()), b"")
    return _table_header(header)


def _json_anchor(start: bytes) -> bool:
    if b'"anchors"' in start and (b"monotonic" in start or b"realtime" in start):
        return True
    first_object = start[: start.find(b"}") + 1] if b"}" in start else start
    keys = [key.decode("utf-8", "replace") for key in _KEY.findall(first_object)]
    return bool(keys) and find_anchor_columns(keys) is not None


def _table_header(header: bytes) -> bool:
    text = header.strip().lstrip(b"#").strip()
    if not text or text[:1].isdigit():
        return False
    delimiter = next((d for d in _DELIMITERS if d in text), None)
    fields = text.split(delimiter) if delimiter else text.split()
    if len(fields) < 2 or len(fields) > 8:
        return False
    names = [field.strip().strip(b'"').decode("utf-8", "replace") for field in fields]
    return find_anchor_columns(names) is not None
