"""Recognise the proc sampler's output by its header line, before generic JSON lines get a look."""

from __future__ import annotations

from stallscope.ingest.appmetrics.proc_sampler.parser import FORMAT
from stallscope.ingest.appmetrics.sniff import first_json_object


def detect(head: bytes) -> bool:
    obj = first_json_object(head)
    return obj is not None and obj.get("stallscope") == FORMAT
