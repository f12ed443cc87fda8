"""Recognise /proc stack dumps: a dump header, then (after any empty dumps) a kernel frame line.

`[<address>] ` at the start of a line is what the kernel's stack files print and no other stack text
does (perf script prints bare hex addresses, ftrace ` => func`, DTrace `module`func`). It must follow
a header the parser can place, so a bare `cat /proc/*/task/*/stack`, which cannot be split into
dumps, is not taken.
"""

from __future__ import annotations

import re

from stallscope.ingest.proc_stacks.frames import FRAME_LINE

_FIELD_HEADER = re.compile(rb"#.*\s(?:tid|pid|comm)=\S", re.IGNORECASE)
_TAIL_HEADER = re.compile(rb"==> .*/stack <==\s*")
MAX_PREAMBLE_LINES = 20
"""Lines tolerated before the first header: a title, `date`, the command that recorded the file."""
MAX_LINES = 400


def is_header(line: bytes) -> bool:
    return _FIELD_HEADER.match(line) is not None or _TAIL_HEADER.fullmatch(line) is not None


def detect(head: bytes) -> bool:
    """Our own split of the head: the shared sniffing leaves `#` lines out, and they are the headers."""
    headed = False
    for number, line in enumerate(head.split(b"\n", MAX_LINES)[:MAX_LINES]):
        if is_header(line):
            headed = True
        elif FRAME_LINE.match(line) is not None:
            return headed
        elif not headed and number >= MAX_PREAMBLE_LINES:
            return False
    return False
