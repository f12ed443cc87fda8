"""One line of the function_graph tracer's text output, taken apart.

The layout (kernel/trace/trace_functions_graph.c; Documentation/trace/ftrace.rst, "function graph
tracer"), every column but the last optional:

    [abstime |  ][ cpu) ][ comm-pid | ][mark ][duration us ]|  [2 spaces per depth]body

    360.774522 |   1)   0.541 us    |          __phys_addr();          a leaf: entry and exit at once
                   0)               |  sys_open() {                     an entry
                   3) # 1837.709 us |          } /* __switch_to */      an exit, with a duration mark
                   0)    sh-4802     | + 49.370 us   |        }         funcgraph-proc

Without the duration column (`echo nofuncgraph-duration > trace_options`, perf-tools' `funcgraph -D`)
nothing separates the CPU (or comm-pid) column from the body, which starts right after it:

                   1) do_sys_open() {                          `NO_DURATION`: ` cpu) ` then the body
                   1)   getname();
                   0)    <idle>-0    | tick_irq_enter() {      with funcgraph-proc: ` | ` after it

Marks: `+` over 10 us, `!` 100 us, `#` 1 ms, `*` 10 ms, `@` 100 ms, `$` 1 s. The absolute time is on
the trace clock (seconds since boot with the default `local` clock). Also printed: context-switch
banners (` 1)    sh-4802    =>    <idle>-0  ` between dashed lines), interrupt arrows
(`==========>` / `<==========`), `/* comments */` (trace_printk, events), `CPU:1 [LOST 12 EVENTS]`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

PROLOGUE = re.compile(
    rb"""\s*(?:(?P<abs>\d{1,11}\.\d+)\s+\|\s+)?
    (?:(?P<cpu>\d{1,4})\)\s+)?
    (?:(?P<proc>[^|\s][^|]*?-\d{1,9})\s+\|\s+)?
    (?:(?P<mark>[+!\#*@$])\s+)?
    (?:(?P<duration>\d{1,15}(?:\.\d+)?)\s+us\s+)?
    \|(?P<body>.*)\Z""",
    re.VERBOSE,
)
CONTEXT_SWITCH = re.compile(
    rb"\s*(?:\d+\.\d+\s+\|\s+)?(?P<cpu>\d{1,4})\)\s+"
    rb"(?P<prev>\S.{0,63}?-\d{1,9})\s+=>\s+(?P<next>\S.{0,63}?-\d{1,9})\s*\Z"
)
"""`comm-pid => comm-pid`: each task at most 64 characters before its pid, so that a long line costs
a bounded number of tries at each `=>` (unbounded, a 300 KB line took half a minute)."""
NO_DURATION = re.compile(
    rb"""\ *(?:(?P<abs>\d{1,11}\.\d+)\ \|\ \ )?
    \ *(?P<cpu>\d{1,4})\)[ ]
    (?:\ *(?P<proc>[^|\s][^|]*?-\d{1,9})\ *\|\ )?
    (?P<body>[^|]*)\Z""",
    re.VERBOSE,
)
"""The layout without the duration column: the body (indented two spaces a depth, `read_body(...,
lead=0)`) follows the CPU column, or the comm-pid column's ` | `. The CPU column is required: the
kernel prints it unless told not to, and without it any `name();` line would pass for one."""
LOST_EVENTS = re.compile(rb"\s*CPU:\s*(?P<cpu>\d{1,4}) \[LOST (?P<count>\d{1,18}) EVENTS\]")
_TAIL = re.compile(rb"/\*\s*(?P<text>.*?)\s*\*/")


@dataclass(frozen=True, slots=True)
class Body:
    """The part after the last `|`: what happened, at which depth."""

    shape: str
    """entry, leaf, exit or comment"""
    depth: int
    name: str
    """The function (for an exit: the name in its `/* tail */` comment, if any)."""
    retval: str | None


def read_body(body: bytes, lead: int = 2) -> Body | None:
    """`    do_sys_open() {` -> an entry at depth 1; None when it is not graph output.

    `lead`: the blanks before depth 0's body (the `|  ` of the duration column has two)."""
    text = body.rstrip()
    stripped = text.lstrip(b" ")
    if not stripped:
        return None
    depth = max(0, (len(text) - len(stripped) - lead) // 2)
    if stripped[0] == 0x7D:  # "}"
        name, retval = _tail(stripped[1:])
        return Body("exit", depth, name, retval)
    if stripped.startswith(b"/*"):
        return Body("comment", depth, "", None)
    if stripped[-1] == 0x7B:  # "{"
        open_at = stripped.find(b"(")
        if open_at <= 0:
            return None
        return Body("entry", depth, _text(stripped[:open_at]), None)
    close_at = stripped.find(b");")
    open_at = stripped.find(b"(")
    if close_at < 0 or open_at <= 0:
        return None
    _, retval = _tail(stripped[close_at + 2 :])
    return Body("leaf", depth, _text(stripped[:open_at]), retval)


def _tail(rest: bytes) -> tuple[str, str | None]:
    """`/* name */`, `/* name = -22 */` or `/* = 0x0 */` after a `}` or `;` -> (name, retval)."""
    match = _TAIL.search(rest)
    if match is None:
        return "", None
    name, equals, retval = match.group("text").partition(b"=")
    return _text(name.strip().removesuffix(b"()")), (_text(retval) or None) if equals else None


def _text(raw: bytes) -> str:
    return raw.decode("utf-8", "replace").strip()


def us_to_ns(text: bytes) -> int:
    """`1059.700`, `119760.2` or `3594274` microseconds -> nanoseconds, exactly."""
    whole, _, frac = text.partition(b".")
    return int(whole) * 1000 + (int((frac + b"000")[:3]) if frac else 0)


def seconds_to_ns(text: bytes) -> int:
    """`360.774522` seconds -> nanoseconds, exactly."""
    whole, _, frac = text.partition(b".")
    return int(whole) * 1_000_000_000 + int((frac + b"000000000")[:9])


def split_task(text: bytes) -> tuple[str, int]:
    """`sh-4802` or `<idle>-0` -> (comm, tid); comms may hold `-`."""
    comm, _, tid = text.strip().rpartition(b"-")
    return comm.decode("utf-8", "replace"), int(tid)
