"""Recognise a metrics CSV: a header row of names, split by `,`, `;` or tab.

A header with a time column (by its name, see `time_columns`) is enough. A header of names without
one, followed by a row of as many fields, is accepted too, so that the parser can find the time by
content or say which column is missing rather than the upload being called unrecognised. CSV is the
most permissive format, so the registry tries it last.
"""

from __future__ import annotations

from stallscope.ingest.appmetrics.csv_head import is_number, sniff_table
from stallscope.ingest.appmetrics.time_columns import is_time_name


def detect(head: bytes) -> bool:
    table = sniff_table(head)
    if table is None:
        return False
    names, rows = table
    if any(is_time_name(name) for name in names):
        return True
    return bool(rows) and all(name and not is_number(name) for name in names) and len(rows[0]) == len(names)
