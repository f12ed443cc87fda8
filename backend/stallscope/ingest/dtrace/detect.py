"""Recognise DTrace aggregation output: indented `module`function` frames, then a value alone.

The header lines dtrace prints (`dtrace: description ...`, the `CPU ID FUNCTION:NAME` table) are
skipped. At least one whole record must be in the sniffed head: a frame line with a backtick followed,
after more frames, by a line that is only a number. perf script frames carry no backtick, and
collapsed stacks are neither indented nor followed by a bare number.
"""

from __future__ import annotations

from stallscope.ingest.dtrace.parser import KEY_INDENT, VALUE_LINE, is_frame_line, is_header
from stallscope.ingest.text_lines import sniff_lines


def detect(head: bytes) -> bool:
    lines = sniff_lines(head)
    if lines is None:
        return False
    frames = ticked = keys = 0
    for line in lines:
        if not line.strip() or (frames == 0 and keys == 0 and is_header(line)):
            continue
        if VALUE_LINE.match(line):
            return ticked > 0
        if frames == 0 and line[:KEY_INDENT].strip():
            keys += 1
            if keys > 2:
                return False
            continue
        if not is_frame_line(line):
            return False
        frames += 1
        ticked += b"`" in line
    return False
