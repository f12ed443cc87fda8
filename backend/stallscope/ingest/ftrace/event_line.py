"""Event lines as `trace-cmd report` and the ftrace `trace` file print them, and their stack lines.

    kworker/u8:2-1718  [000]  3094619.035436: block_rq_insert: 254,0 WS 4096 () 8 + 8 [kworker/u8:2]
          <idle>-0     [001] d.h2.  123.456789: sched_wakeup: comm=foo pid=1 prio=120 target_cpu=001
            bash-1977  (   1977) [000] .... 123.456789: ...                      (record-tgid option)
     rcu_preempt-15    [001]  3775.104128: kernel_stack:         <stack trace >   (trace-cmd -T)
          <idle>-0     [001] d.h2.  123.456790: <stack trace>                    (ftrace stacktrace)
    => try_to_wake_up (ffffffff813aa887)                                          (trace-cmd frames)
     => __schedule+0x2e3/0x870                                                    (ftrace, sym-offset)
     => <00007f2c9dfd5b3e>                                                        (a user frame)

The task is `comm-tid` (the kernel's "pid" is the thread id); comms may hold `-` and spaces, so the id
is the digits before the CPU column. The flags column (`d.h2.`, irqs-off/need-resched/hardirq/
preempt-depth) appears in the ftrace file and `trace-cmd report -l`.
"""

from __future__ import annotations

import re

from stallscope.ingest.model import FrameKind

EVENT = re.compile(
    rb"""\s*+(?P<comm>.*?)-(?P<tid>\d{1,9})\s+   # `*+`: blanks are never the comm's, tried once
    (?:\(\s*(?P<tgid>-?\d{1,9}|-+)\)\s+)?
    \[(?P<cpu>\d{1,4})\]\s+
    (?:(?P<flags>[.a-zA-Z0-9]{4,6})\s+)?
    (?P<time>\d{1,11}\.\d+):\s+
    (?P<event><stack\ trace>|<user\ stack\ trace>|\w+):?\s*(?P<rest>.*?)\s*\Z""",
    re.VERBOSE,
)
STACK_EVENTS = {
    b"kernel_stack": FrameKind.KERNEL,
    b"<stack trace>": FrameKind.KERNEL,
    b"user_stack": FrameKind.USER,
    b"<user stack trace>": FrameKind.USER,
}
_FRAME_OFFSET = re.compile(r"\+0x[0-9a-fA-F]+(?:/0x[0-9a-fA-F]+)?\Z")
_TRAILING_ADDRESS = re.compile(r"\s+\((?:0x)?[0-9a-fA-F]+\)\Z")
_USER_OBJECT = re.compile(r"(?P<object>[^\[\s]+)\[\+0x[0-9a-fA-F]+\]\Z")

TRACING_FRAMES = (
    "trace_event_raw_event_",
    "__traceiter_",
    "perf_trace_",
    "__bpf_trace_",
    "trace_event_buffer_",
    "__ftrace_trace_stack",
    "ftrace_trace_stack",
    "__trace_stack",
    "trace_buffer_unlock_commit",
)
"""The tracer's own functions, at the leaf end of every event stack; perf leaves them out too."""


def is_frame_line(raw: bytes) -> bool:
    return raw.lstrip(b" ").startswith(b"=>")


def frame_name(raw: bytes) -> tuple[str, bool]:
    """`=> try_to_wake_up (ffffffff813aa887)` -> (`try_to_wake_up`, resolved?)."""
    text = raw.decode("utf-8", "replace").strip()[2:].strip()
    if not text or (text.startswith("<") and text.endswith(">")) or text.startswith("0x"):
        return "[unknown]", False
    user_object = _USER_OBJECT.match(text)
    if user_object is not None:
        return f"[{user_object.group('object').rsplit('/', 1)[-1]}]", True
    text = _TRAILING_ADDRESS.sub("", text)
    return _FRAME_OFFSET.sub("", text).replace(";", ":"), True
