"""Recognise collapsed stacks: every line `frames count`, most with at least one `;`.

Requiring every sniffed line to end in a space and a count keeps CSV (a header line, comma-joined
values), perf script (indented frame lines, `event:` headers) and DTrace output (indented frames,
counts alone on a line) out. A first frame that starts with a space or tab is refused, as is a
FlameGraph differential file (`frames count count`), which would otherwise read as frames ending
in a number.
"""

from __future__ import annotations

import re

from stallscope.ingest.collapsed.parser import split_line
from stallscope.ingest.text_lines import sniff_lines

_TWO_COUNTS = re.compile(rb" \d+ \d+\s*\Z")


def detect(head: bytes) -> bool:
    lines = sniff_lines(head)
    if lines is None:
        return False
    seen = nested = 0
    for line in lines:
        if not line.strip():
            continue
        if line[:1] in b" \t" or split_line(line) is None or _TWO_COUNTS.search(line):
            return False
        seen += 1
        nested += b";" in line
    return seen > 0 and nested * 2 >= seen
