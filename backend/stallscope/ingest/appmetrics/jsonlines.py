"""Decode JSON lines fast: a chunk of lines in one `json.loads` call, line by line only on trouble.

One call per line spends more time entering the decoder than decoding a short object. Joining a
chunk's lines into one array and decoding that is several times faster; it is only trusted when every
line looks like one whole object and the array has one object per line, so a line that is not valid
on its own can never borrow text from its neighbours. Anything else is decoded line by line, which
is also how bad lines get their own warning.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from stallscope.ingest.appmetrics.common import cut, drop
from stallscope.ingest.json_text import loads
from stallscope.ingest.model import ParseReport
from stallscope.ingest.text_lines import TextLines

Decoded = tuple[int, Any]


def decode_lines(
    numbered: list[tuple[int, bytes]], reader: TextLines, report: ParseReport
) -> Iterator[Decoded]:
    """(line number, decoded value) for each of the numbered non-blank lines that is valid JSON."""
    if not numbered:
        return
    lines = [line.strip() for _, line in numbered]
    if all(line[:1] == b"{" and line[-1:] == b"}" for line in lines):
        try:
            values = loads(b"[" + b",".join(lines) + b"]")
        except (ValueError, UnicodeDecodeError):
            values = None
        if values is not None and len(values) == len(lines) and all(type(v) is dict for v in values):
            yield from zip([number for number, _ in numbered], values, strict=True)
            return
    for number, line in numbered:
        try:
            yield number, loads(line)
        except (ValueError, UnicodeDecodeError) as exc:
            if reader.cut_tail and number == reader.number:
                cut(report, number)
            else:
                drop(report, number, f"not valid JSON ({_reason(exc)})")


def _reason(exc: Exception) -> str:
    if isinstance(exc, json.JSONDecodeError):
        return f"{exc.msg} at column {exc.colno}"
    return str(exc)
