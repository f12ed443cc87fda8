"""Recognise JSON-lines metrics: the first line is an object with a time and something to plot.

The time is a key named like one or holding one (`time_columns`, without its first-key last resort,
which would take any object).
"""

from __future__ import annotations

from stallscope.ingest.appmetrics.common import is_number
from stallscope.ingest.appmetrics.sniff import first_json_object
from stallscope.ingest.appmetrics.time_columns import find_time_column
from stallscope.ingest.model import ParseError

_NOT_TIMES = ("labels", "unit", "name", "value", "")


def detect(head: bytes) -> bool:
    obj = first_json_object(head)
    if obj is None or "stallscope" in obj:
        return False
    keys = [str(key) for key in obj if key not in _NOT_TIMES]
    try:
        time_key = find_time_column(keys, [[obj[key]] for key in keys], last_resort=False).name
    except ParseError:
        return False
    if "name" in obj and "value" in obj:
        return True
    return any(is_number(value) for key, value in obj.items() if key != time_key)
