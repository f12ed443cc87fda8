"""Recognise the systemtap fault lines (`start_us:end_us:tid:pid:duration_us:retval`).

Every sniffed line must be a fault line or a `print_ubacktrace()` line (a few lines the script
printed before its first fault are allowed), and at least one fault line must be there: six
colon-separated integers are not something another format writes line after line.
"""

from __future__ import annotations

from stallscope.ingest.stap.frames import parse_frame_line
from stallscope.ingest.stap.parser import FAULT_LINE
from stallscope.ingest.text_lines import sniff_lines

_MAX_LEADING_LINES = 5


def detect(head: bytes) -> bool:
    lines = sniff_lines(head)
    if lines is None:
        return False
    faults = leading = 0
    for line in lines:
        if not line.strip():
            continue
        if FAULT_LINE.match(line):
            faults += 1
        elif faults and parse_frame_line(line.decode("utf-8", "replace")) is not None:
            continue
        elif faults == 0 and leading < _MAX_LEADING_LINES:
            leading += 1
        else:
            return False
    return faults > 0
