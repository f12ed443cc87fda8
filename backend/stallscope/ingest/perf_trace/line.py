"""One `perf trace` output line, taken apart.

perf prints (tools/perf/builtin-trace.c) a time in milliseconds (`%10.3f`, relative to the first event
unless `-T`; `?` when unknown), the duration `(%6.3f ms): ` or `(         ): ` when it is not known
yet, `comm/tid ` (comm cut to 14 characters; both left out when a single thread is traced), then:

    mmap(len: 8192, prot: READ|WRITE, flags: PRIVATE|ANONYMOUS)        = 0x7fee8b713000   complete
    fsync(fd: 4)                                                       ...                started
     ... [continued]: fsync())                                         = 0                finished
    exit_group(error_code: 0)                                          = ?                never returns

Tracepoint and probe events (`-e sched:*`, `--no-syscalls -e ...`) print `name(fields)` with no
result, and no duration: `(         ): ` when syscalls are traced too, nothing otherwise:

         0.000 (         ): sched:sched_process_exec(filename: "/usr/bin/sleep", pid: 30928 (sleep))
         1.076 sleep/30932 sched:sched_switch(prev_comm: "sleep", prev_pid: 30932 (sleep), ...)

`trace.show_duration=no` drops the duration column. Results are numbers, `0x` addresses,
`-1 EAGAIN (Resource temporarily unavailable)` (older perf: no parentheses), `0 (Timeout)` or a
child's pid with its comm. Numbers have as many digits as their columns hold (`value_ranges`): times up to
the year 5138 in milliseconds, durations in 64-bit nanoseconds, 32-bit thread ids; a line with a
longer one is not a syscall line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

LINE = re.compile(
    rb"""\s*(?P<time>\d{1,14}\.\d+|\?)\s
    (?:\s*\((?:\s*(?P<duration>\d{1,12}\.\d+)\s*ms|\s*)\):)?\s*
    (?:(?:(?P<comm>\S.*?)/)?(?P<tid>-?\d{1,9})\s+)?
    (?P<body>[A-Za-z_.].*\S)\s*\Z""",
    re.VERBOSE,
)
# The four common shapes, each in one match (`read_line` handles every other variant):
_HEAD = rb"\s*(\d{1,14})\.(\d{3}) \("
_DURATION = rb"\s*(\d{1,12})\.(\d{3}) ms"
_WHO = rb"\): (\S.*?)/(\d{1,9}) +"
COMPLETE = re.compile(_HEAD + _DURATION + _WHO + rb"([A-Za-z_][\w.]*)\((.*)\)\s*= (.*?)\s*\Z")
"""time s, ms; duration s, ms; comm; tid; name; args; result."""
STARTED = re.compile(_HEAD + rb"\s+" + _WHO + rb"([A-Za-z_][\w.]*)\((.*?)\)?\s+\.\.\.\Z")
"""time s, ms; comm; tid; name; args."""
CONTINUED = re.compile(_HEAD + _DURATION + _WHO + rb"\.\.\. \[continued\]: ([\w.]+)\(\)\)\s*= (.*?)\s*\Z")
"""time s, ms; duration s, ms; comm; tid; name; result."""
EVENT = re.compile(
    rb"\s*(\d{1,14})\.(\d{3}) (?:\(\s+\): )?(?:(\S.{0,24}?)/(\d{1,9}) +)?"
    rb"([A-Za-z_][\w.-]*:[A-Za-z_][\w.-]*)\((.*)\)\s*\Z"
)
"""A tracepoint or probe line, with or without the empty duration column and the comm/tid column:
time s, ms; comm; tid; name; fields."""
_CONTINUED = re.compile(rb"\.\.\.\s\[continued\]:\s(?P<name>[\w.]+)\(\)\)(?:\s*=\s(?P<result>.*))?\Z")
_CALL = re.compile(rb"(?P<name>[A-Za-z_][\w.]*)\((?P<args>.*)\)\s*=\s(?P<result>.*)\Z")
_STARTED = re.compile(rb"(?P<name>[A-Za-z_][\w.]*)\((?P<args>.*?)\)?\s+\.\.\.\Z")
_NO_RETURN = re.compile(rb"(?P<name>[A-Za-z_][\w.]*)\((?P<args>.*)\)\Z")
_TRACEPOINT = re.compile(rb"(?P<name>[A-Za-z_][\w.-]*:[A-Za-z_][\w.-]*)\((?P<args>.*)\)\Z")
LOST = re.compile(rb"\s*LOST (?P<count>\d{1,18}) events!\s*\Z")
"""perf's own line when its ring buffer overflowed (no CPU named)."""
_ERRNO = re.compile(r"-1 (E[A-Z0-9]+)\b")


@dataclass(slots=True)
class TraceLine:
    """A syscall or event line; `shape` is complete, started, continued, no-return (no `= result`) or
    event (a tracepoint or probe: `group:name(fields)`, never a result)."""

    shape: str
    time_ms: str | None
    duration_ms: str | None
    comm: str
    tid: int | None
    name: str
    args: str | None
    result: str | None


def read_line(raw: bytes) -> TraceLine | None:
    """The parts of a syscall or tracepoint line; None for anything else (callchains, summaries)."""
    match = LINE.match(raw)
    if match is None:
        return None
    time, duration, comm, tid, body = match.group("time", "duration", "comm", "tid", "body")
    parts = _parts(body)
    if parts is None:
        return None
    shape, name, args, result = parts
    return TraceLine(
        shape,
        None if time == b"?" else time.decode(),
        duration.decode() if duration is not None else None,
        comm.decode("utf-8", "replace") if comm else "",
        int(tid) if tid is not None else None,
        name.decode("utf-8", "replace"),
        args.decode("utf-8", "replace") if args is not None else None,
        result.decode("utf-8", "replace").strip() if result is not None else None,
    )


def _parts(body: bytes) -> tuple[str, bytes, bytes | None, bytes | None] | None:
    if body.startswith(b"..."):
        continued = _CONTINUED.match(body)
        if continued is None:
            return None
        return "continued", continued.group("name"), None, continued.group("result")
    for shape, pattern in (("complete", _CALL), ("started", _STARTED), ("no-return", _NO_RETURN)):
        match = pattern.match(body)
        if match is not None:
            result = match.group("result") if shape == "complete" else None
            return shape, match.group("name"), match.group("args"), result
    event = _TRACEPOINT.match(body)
    if event is not None:
        return "event", event.group("name"), event.group("args"), None
    return None


def ms_to_ns(text: str) -> int:
    """`12453.692` ms (perf prints three decimals) -> nanoseconds, exactly."""
    whole, _, frac = text.partition(".")
    return int(whole) * 1_000_000 + int((frac + "000000")[:6])


def errno_of(result: str) -> str | None:
    """`-1 EAGAIN (Resource temporarily unavailable)` -> `EAGAIN`."""
    match = _ERRNO.match(result)
    return match.group(1) if match is not None else None
