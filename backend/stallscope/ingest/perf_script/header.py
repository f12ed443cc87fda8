"""The sample header line: `comm  pid/tid [cpu] time: period event: [tracepoint args | frame]`.

Every field between the thread id and the event is optional, because `perf script -F` can leave any of
them out, and perf pads columns with runs of spaces. One compiled pattern reads them all; the comm is
matched lazily so names with spaces (`V8 WorkerThread`) and odd names (`:-1` for an exited task) work.
Numbers have as many digits as their columns hold (`value_ranges`): a header with a longer one is no header.

Only one way to split the blanks around the comm is tried (possessive `*+`, a comm that starts and ends
with a non-blank): when the blanks before the comm, the comm and the blanks after it could each take
them, a line of a few thousand blanks that is not a header took seconds, and one of 64 KB never ended.
"""

from __future__ import annotations

import re

HEADER = re.compile(
    rb"""
    \s*+(?P<comm>(?:\S(?:.*?\S)??)?)\s*+(?<=\s)  # blanks are never the comm's (docstring)
    (?P<pid>-?\d{1,9})(?:/(?P<tid>-?\d{1,9}))?\s+ # "tid", or "pid/tid" with -F pid,tid
    (?:\[(?P<cpu>\d{1,4})\]\s+)?
    (?:\d{4}-\d\d-\d\d\ \d\d:\d\d:\d\d(?:\.\d+)?\s+)?  # -F +tod wall-clock time: not kept
    (?:(?P<time>\d{1,11}\.\d+):\s+)?
    (?:(?P<period>\d{1,18})\s+)?
    (?!\d+\.\d+:)(?P<event>\S+?):                  # may hold colons (sched:sched_switch); never a time
    (?:\s+(?P<rest>.*\S))?\s*\Z
    """,
    re.VERBOSE,
)

# Event modifiers perf appends after a colon (`cycles:u`, `cpu-clock:pppH`).
_MODIFIERS = re.compile(r":[ukhpPGHSDIWebR]+\Z")

_NS_SCALE: tuple[int, ...] = tuple(10 ** (9 - digits) for digits in range(10))


def normalise_event(raw: str) -> str:
    """`cpu-clock:pppH` -> `cpu-clock`; tracepoints such as `sched:sched_switch` stay whole.

    inferno's event filter compares names without modifiers too; it cuts tracepoint names at their
    first colon, which would merge every `sched:*` event, so there we keep the full name.
    """
    return _MODIFIERS.sub("", raw)


def time_ns(text: bytes) -> int:
    """`320.927016` (seconds, as perf prints them) -> nanoseconds, exactly."""
    frac_digits = len(text) - 1 - text.index(b".")
    if frac_digits > 9:
        text = text[: len(text) - frac_digits + 9]
        frac_digits = 9
    return int(text.replace(b".", b"")) * _NS_SCALE[frac_digits]


def thread_ids(first: bytes, second: bytes | None) -> tuple[int | None, int | None]:
    """(pid, tid): one number is perf's default tid; `-1` (an exited task) means unknown."""
    if second is None:
        tid = int(first)
        return None, (tid if tid >= 0 else None)
    pid, tid = int(first), int(second)
    return (pid if pid >= 0 else None), (tid if tid >= 0 else None)
