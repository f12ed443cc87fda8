"""The sample header line: `comm  pid/tid [cpu] time: period event: [tracepoint args | frame]`.

Every field between the thread id and the event is optional, because `perf script -F` can leave any of
them out, and perf pads columns with runs of spaces. One compiled pattern reads them all; the comm is
matched lazily so names with spaces (`V8 WorkerThread`) and odd names (`:-1` for an exited task) work.
"""

from __future__ import annotations

import re

HEADER = re.compile(
    rb"""
    \s*(?P<comm>.*?)\s+
    (?P<pid>-?\d+)(?:/(?P<tid>-?\d+))?\s+         # "tid", or "pid/tid" with -F pid,tid
    (?:\[(?P<cpu>\d+)\]\s+)?
    (?:\d{4}-\d\d-\d\d\ \d\d:\d\d:\d\d(?:\.\d+)?\s+)?  # -F +tod wall-clock time: not kept
    (?:(?P<time>\d+\.\d+):\s+)?
    (?:(?P<period>\d+)\s+)?
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
