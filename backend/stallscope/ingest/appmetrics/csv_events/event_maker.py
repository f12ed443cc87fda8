"""Build one event in one call: its `TimedEvent` and its `attrs` dict, written out for the file's layout.

An events CSV row is a few short cells, so a fixed cost per event decides the speed: handing
`TimedEvent` fifteen iterators (eight of them constants for the columns the file lacks), and
`dict(zip(keys, values))` for the counters, cost more than the event itself. So a function is
generated once per layout (and per set of counter columns that have empty cells in a run), the way
`row_points` builds metric rows: its parameters are the columns the file has, the absent fields are
written as constants, and `attrs` is a dict display plus one `if` per counter that may be empty. It
fills `attrs` exactly as the general way's loop does (in column order, an empty cell left out, the
last value winning for a name the header repeats). Only positions and constants go into the source;
the counters' names are the file's text and stay in the namespace.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from stallscope.ingest.model import EventKind, TimedEvent

MakeEvent = Callable[..., TimedEvent]
"""`make(line, name, start_ns, duration_ns, <one value per field column>, <one per counter>)`."""
FIELDS: dict[str, str] = {"pid": "None", "tid": "None", "comm": '""', "cpu": "None", "result": "None"}
"""`TimedEvent` fields a column may fill, in the order it takes them, with their value when none does."""


def event_maker(
    kind: EventKind, fields: Sequence[str], keys: Sequence[str], sparse: Sequence[int]
) -> MakeEvent:
    """A function building the event of one row, of `kind`, from its line, name, start and duration,
    the `fields` it has (of `FIELDS`, in that order) and the values of its counters `keys`, those at
    the positions `sparse` left out when None."""
    unknown = set(fields) - set(FIELDS)
    if unknown:
        raise ValueError(f"not event fields: {sorted(unknown)}")
    count = len(keys)
    params = ["line", "name", "start_ns", "duration_ns", *fields, *(f"v{i}" for i in range(count))]
    empty = {int(i) for i in sparse}
    first_sparse = min(empty, default=count)
    display = ", ".join(f"k{i}: v{i}" for i in range(first_sparse))
    lines = [f"def make({', '.join(params)}):", f"    d = {{{display}}}"]
    for i in range(first_sparse, count):
        if i in empty:
            lines += [f"    if v{i} is not None:", f"        d[k{i}] = v{i}"]
        else:
            lines.append(f"    d[k{i}] = v{i}")
    values = [name if name in fields else default for name, default in FIELDS.items()]
    pid, tid, comm, cpu, result = values
    lines.append(
        f"    return E(line, K, name, start_ns, duration_ns, {pid}, {tid}, {comm}, {cpu}, "
        f"None, (), None, None, {result}, d)"
    )
    namespace: dict[str, Any] = {"E": TimedEvent, "K": kind}
    namespace.update((f"k{i}", key) for i, key in enumerate(keys))
    exec(compile("\n".join(lines) + "\n", f"<event of {len(params)} columns>", "exec"), namespace)
    make: MakeEvent = namespace["make"]
    return make
