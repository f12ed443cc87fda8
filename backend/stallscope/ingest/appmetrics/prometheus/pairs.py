"""Runs of `[t, "v"]` pairs read a run at a time: the bulk of a range query, with no step per pair.

A run is as many pairs as follow each other on one line, each plain (epoch seconds of at most 11
digits, up to the year 5138, with at most 39 fraction digits; a value of letters, digits, `.`, `+`
and `-`, such as `0.25`, `1e-05`, `NaN` or `+Inf`), each followed by a `,`: every one of them is a
pair the general expression in `parser` reads the same way. One match finds the run's end;
`findall`s collect its seconds, fractions and values (all strings, so no tuple per pair for the
garbage collector to track), and the times are made in C: `1700000000` + `123`.ljust(9, "0") read
as one integer is the time in nanoseconds, exactly. The last pair of an array (followed by `]`) and
anything unusual are left to the caller.
"""

from __future__ import annotations

import re
from itertools import repeat
from operator import add

Pairs = tuple[int, list[int], list[str]]
"""Pairs that share a line: the line, their times (epoch ns) and their value texts."""

_SPACE = r"[ \t\r]*"
_PAIR = r'\[{0}[0-9]{{1,11}}(?:\.[0-9]{{1,39}})?{0},{0}"[0-9A-Za-z.+\-]{{0,64}}"{0}\]{0},'
_COMPACT_RUN = re.compile(f"(?:{_PAIR.format('')})+")
_SPACED_RUN = re.compile(f"(?:{_PAIR.format(_SPACE)})+")
"""Runs as Prometheus writes them (no spaces, and quicker to match), and with any spaces but newlines."""
_PRESENT_DAY_RUN = re.compile(r'(?:\[[0-9]{10}(?:\.[0-9]{1,9})?,"[0-9A-Za-z.+\-]{0,64}"\],)+')
"""The commonest run of all: compact, with ten-digit seconds (2001 to 2286) and at most nine fraction
digits, so that `1700000000.123` without its dot, padded to 19 digits, is the time in nanoseconds."""
_STAMPS = re.compile(r"\[([0-9.]+)")
_SECONDS = re.compile(rf"\[{_SPACE}([0-9]+)")
_FRACTIONS = re.compile(rf"\[{_SPACE}[0-9]+(?:\.([0-9]{{1,9}}))?")
_VALUES = re.compile(r'"([^"]*)"')


def read_run(text: str, start: int) -> tuple[list[int], list[str], int] | None:
    """The times and value texts of the run of pairs at `start`, and where it ends; None if none."""
    run = _PRESENT_DAY_RUN.match(text, start)
    if run is not None:
        end = run.end()
        digits = map(str.replace, _STAMPS.findall(text, start, end), repeat("."), repeat(""))
        times = list(map(int, map(str.ljust, digits, repeat(19), repeat("0"))))
        return times, _VALUES.findall(text, start, end), end
    run = _COMPACT_RUN.match(text, start) or _SPACED_RUN.match(text, start)
    if run is None:
        return None
    end = run.end()
    seconds = _SECONDS.findall(text, start, end)
    fractions = map(str.ljust, _FRACTIONS.findall(text, start, end), repeat(9), repeat("0"))
    return list(map(int, map(add, seconds, fractions))), _VALUES.findall(text, start, end), end
