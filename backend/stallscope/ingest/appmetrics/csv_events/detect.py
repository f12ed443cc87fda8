"""Recognise an events CSV: a table whose header has an event-name column and a duration column.

Tried before the metrics CSV, which would read such a file as series with a text column.
"""

from __future__ import annotations

from stallscope.ingest.appmetrics.csv_events.layout import is_events_header
from stallscope.ingest.appmetrics.csv_head import sniff_table


def detect(head: bytes) -> bool:
    table = sniff_table(head)
    return table is not None and is_events_header(table[0])
