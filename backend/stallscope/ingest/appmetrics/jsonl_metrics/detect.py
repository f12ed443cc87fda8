"""Recognise JSON-lines metrics: the first line is an object with a time and something to plot."""

from __future__ import annotations

from stallscope.ingest.appmetrics.common import TIME_KEYS, is_number
from stallscope.ingest.appmetrics.sniff import first_json_object


def detect(head: bytes) -> bool:
    obj = first_json_object(head)
    if obj is None or "stallscope" in obj:
        return False
    keys = {str(key).lower(): key for key in obj}
    time_key = next((keys[k] for k in TIME_KEYS if k in keys), None)
    if time_key is None:
        return False
    if "name" in obj and "value" in obj:
        return True
    return any(is_number(value) for key, value in obj.items() if key != time_key)
