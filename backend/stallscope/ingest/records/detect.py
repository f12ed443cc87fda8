"""A `stallscope-records` file says so on its first line: its header object names the format."""

from __future__ import annotations

import re

from stallscope.ingest.records.format import FORMAT

_FORMAT_KEY = re.compile(rb'^\{\s*"format"\s*:\s*"' + re.escape(FORMAT.encode()) + rb'"')


def detect(head: bytes) -> bool:
    return _FORMAT_KEY.match(head) is not None
