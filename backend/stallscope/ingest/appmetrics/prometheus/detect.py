"""Recognise a Prometheus query result: a JSON object whose `resultType` is a matrix or vector."""

from __future__ import annotations

import re

_RESULT_TYPE = re.compile(rb'"resultType"\s*:\s*"(?:matrix|vector)"')
_SNIFF_BYTES = 4096
"""Prometheus writes `status` and `resultType` first; a few KiB is plenty, even pretty-printed."""


def detect(head: bytes) -> bool:
    start = head.lstrip()[:_SNIFF_BYTES]
    return start.startswith(b"{") and _RESULT_TYPE.search(start) is not None and b'"result"' in head
