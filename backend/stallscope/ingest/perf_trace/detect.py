"""Recognise `perf trace` output, and tell relative times from `-T` (since boot) ones.

Most of the first lines (callchain frames and blank lines aside) must be syscall lines, the first one
included. perf trace's relative clock starts at the first event, so its first line reads a few
milliseconds at most; `-T` prints milliseconds since boot. A first time of a minute or more is taken
for `-T`: a relative trace whose first printed call comes a minute in (a strict `--duration` filter)
or an absolute one from a host up for under a minute are the cases this gets wrong, and choosing the
importer by name settles them.
"""

from __future__ import annotations

from stallscope.ingest.perf_trace.line import ms_to_ns, read_line
from stallscope.ingest.perf_trace.parser import is_callchain_line
from stallscope.ingest.text_lines import sniff_lines

ABSOLUTE_FROM_MS = 60_000
_SNIFF_CALLS = 20


def first_time_ms(head: bytes) -> float | None:
    """The first line's time if `head` reads as perf trace output, else None."""
    lines = sniff_lines(head)
    if lines is None:
        return None
    first: float | None = None
    seen = matched = 0
    for line in lines:
        if not line.strip() or is_callchain_line(line):
            continue
        trace = read_line(line)
        if seen == 0 and trace is None:
            return None
        seen += 1
        if trace is not None:
            matched += 1
            if first is None and trace.time_ms is not None:
                first = ms_to_ns(trace.time_ms) / 1e6
        if seen >= _SNIFF_CALLS:
            break
    if matched * 5 < seen * 4:
        return None
    return first


def detect(head: bytes) -> bool:
    """perf trace output with relative times (the default)."""
    first = first_time_ms(head)
    return first is not None and first < ABSOLUTE_FROM_MS


def detect_absolute(head: bytes) -> bool:
    """perf trace output whose times look like `-T` milliseconds since boot."""
    first = first_time_ms(head)
    return first is not None and first >= ABSOLUTE_FROM_MS
