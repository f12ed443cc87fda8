"""A timeline selection as Chrome trace-event JSON, for Perfetto UI and chrome://tracing.

The format is Google's "Trace Event Format" (the JSON object form). What goes in:
- Timed events (scheduler intervals, syscalls, faults, function calls) are `X` complete events on
  their thread, `dur` in microseconds with nanosecond decimals; an interval that never closed is an
  instant (`i`) marked `unclosed`. Off-CPU intervals are named `off-cpu <state>` (`off-cpu D`).
- CPU samples are thread-scoped instants named after the frame that was running (the leaf), their
  perf event as category, and their whole stack through `sf`, an id into the `stackFrames`
  dictionary (each frame there names its parent), which chrome://tracing shows on selection.
- Thread and process names come as `M` metadata events (`thread_name`, `process_name`).

`ts` is microseconds since an origin, the selection's start: the trace opens at zero in both
viewers, whatever the year. `otherData` gives the origin as wall-clock time (`origin_utc`, and
`origin_epoch_us` exactly), along with what the caller adds (what was left out, and why).

Trace pids and tids are the records' own on one host. Two hosts can run the same pid, and both
viewers group by pid alone, so the n-th host of a selection (from 0) adds n x 2^22 to its pids and
tids: Linux pids never reach 2^22 (`PID_MAX_LIMIT`), so an id's host is `id >> 22`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from stallscope.analysis.flame import FrameInfo
from stallscope.analysis.timeline_grid import from_epoch_us
from stallscope.kit.units import utc_iso

PID_SPACE = 1 << 22
SAMPLE = "sample"
SCHEDULER_KINDS = ("off-cpu", "on-cpu")


@dataclass(frozen=True, slots=True)
class TraceRecord:
    """A sample or a timed event of the selection, as the trace needs it."""

    at_us: int
    """Start, epoch microseconds."""
    kind: str
    """`sample`, or the event's kind: `off-cpu`, `on-cpu`, `syscall`, `fault`, `function`…"""
    name: str
    """The perf event of a sample; the event's own name otherwise."""
    host: int
    """The host's index in the selection (0 for the first)."""
    pid: int | None
    tid: int | None
    comm: str
    duration_ns: int | None = None
    state: str | None = None
    stack_id: int | None = None
    args: Mapping[str, Any] | None = None
    """Extra arguments shown with the event (a syscall's arguments and result…)."""


class _StackFrames:
    """The `stackFrames` dictionary: one entry per distinct path prefix, ids as strings."""

    def __init__(self, stacks: Mapping[int, Sequence[int]], frames: Mapping[int, FrameInfo]) -> None:
        self._stacks = stacks
        self._frames = frames
        self._nodes: dict[tuple[str, int], str] = {}
        self._leaves: dict[int, str | None] = {}
        self.entries: dict[str, dict[str, str]] = {}

    def leaf(self, stack_id: int) -> str | None:
        """The `sf` id of a stored stack's leaf; None for an empty or unknown stack."""
        if stack_id in self._leaves:
            return self._leaves[stack_id]
        parent = ""
        for frame_id in self._stacks.get(stack_id, ()):
            node = self._nodes.get((parent, frame_id))
            if node is None:
                node = self._nodes[(parent, frame_id)] = str(len(self._nodes) + 1)
                info = self._frames[frame_id]
                entry = {"name": info.name, "category": info.kind}
                if parent:
                    entry["parent"] = parent
                self.entries[node] = entry
            parent = node
        leaf = self._leaves[stack_id] = parent or None
        return leaf

    def leaf_name(self, stack_id: int) -> str | None:
        frame_ids = self._stacks.get(stack_id, ())
        return self._frames[frame_ids[-1]].name if frame_ids else None


def trace_ids(record: TraceRecord) -> tuple[int, int]:
    """The (pid, tid) a record is drawn under; a missing id is the other one, or 0."""
    pid = record.pid if record.pid is not None else (record.tid or 0)
    tid = record.tid if record.tid is not None else pid
    offset = record.host * PID_SPACE
    return offset + pid, offset + tid


def chrome_trace(
    records: Iterable[TraceRecord],
    stacks: Mapping[int, Sequence[int]],
    frames: Mapping[int, FrameInfo],
    hosts: Sequence[str],
    origin_us: int,
    other_data: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The trace as a JSON-ready dict; `stacks` are frame ids root first, as the stack catalog gives."""
    stack_frames = _StackFrames(stacks, frames)
    events: list[dict[str, Any]] = []
    threads: dict[tuple[int, int], str] = {}
    processes: dict[int, str] = {}
    for record in records:
        pid, tid = trace_ids(record)
        if (pid, tid) not in threads:
            threads[pid, tid] = record.comm
            # A process is named as its main thread; until that is seen, as its first thread.
            if pid == tid or pid not in processes:
                processes[pid] = record.comm
        event = _event(record, origin_us, stack_frames)
        event["pid"], event["tid"] = pid, tid
        events.append(event)
    metadata = _metadata(threads, processes, hosts)
    return {
        "traceEvents": metadata + events,
        "stackFrames": stack_frames.entries,
        "otherData": {
            "origin_utc": utc_iso(from_epoch_us(origin_us)),
            "origin_epoch_us": origin_us,
            "hosts": list(hosts),
            **(other_data or {}),
        },
    }


def _event(record: TraceRecord, origin_us: int, stack_frames: _StackFrames) -> dict[str, Any]:
    ts = record.at_us - origin_us
    sf = stack_frames.leaf(record.stack_id) if record.stack_id is not None else None
    if record.kind == SAMPLE:
        leaf = stack_frames.leaf_name(record.stack_id) if record.stack_id is not None else None
        name = leaf or record.name
        event: dict[str, Any] = {"ph": "i", "s": "t", "name": name, "cat": record.name, "ts": ts}
    else:
        name = record.name
        if record.kind in SCHEDULER_KINDS:
            name = f"{record.kind} {record.state}" if record.state else record.kind
        args: dict[str, Any] = {k: v for k, v in (record.args or {}).items() if v is not None}
        if record.state:
            args["state"] = record.state
        if record.duration_ns is None:
            event = {"ph": "i", "s": "t", "name": name, "cat": record.kind, "ts": ts}
            args["unclosed"] = True
        else:
            dur = round(record.duration_ns / 1000, 3)
            event = {"ph": "X", "name": name, "cat": record.kind, "ts": ts, "dur": dur}
        if args:
            event["args"] = args
    if sf is not None:
        event["sf"] = sf
    return event


def _metadata(
    threads: Mapping[tuple[int, int], str], processes: Mapping[int, str], hosts: Sequence[str]
) -> list[dict[str, Any]]:
    """`process_name` and `thread_name` events; a process's name says its host when there are several."""
    out: list[dict[str, Any]] = []
    for pid, comm in sorted(processes.items()):
        name = f"{comm} ({hosts[pid // PID_SPACE]})" if len(hosts) > 1 else comm
        out.append(_named("process_name", pid, 0, name))
    out.extend(_named("thread_name", pid, tid, comm) for (pid, tid), comm in sorted(threads.items()))
    return out


def _named(what: str, pid: int, tid: int, name: str) -> dict[str, Any]:
    return {"ph": "M", "name": what, "pid": pid, "tid": tid, "ts": 0, "args": {"name": name}}
