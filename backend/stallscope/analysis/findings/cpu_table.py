"""A digest's CPU rows: one per (event, thread, stack), kept as columns.

A busy capture has tens of thousands of them. As objects they were built, turned into JSON lists,
and turned into arrays again for every question detectors ask; as columns they go from the
database to the detectors and into the stored digest without a Python object per row. Reading a row
(`table[i]`, iterating) still gives a `CpuRow`, which is also what builders and tests write.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, overload

import numpy as np

from stallscope.analysis.findings.stack_table import Int64s, pack_array, position, unpack_array

NO_ID = np.iinfo(np.int64).min
"""A pid or tid the capture did not record (None), in an integer column."""


@dataclass(slots=True)
class CpuRow:
    """Samples of one event, thread and stack: `weight` in the event's unit, `samples` counted."""

    event: str
    pid: int | None
    tid: int | None
    comm: str
    stack: int
    """Index into the digest's `stacks`."""
    weight: int
    samples: int


class CpuTable(Sequence[CpuRow]):
    """CPU rows as columns; `events[event[i]]` and `comms[comm[i]]` are row i's names."""

    __slots__ = ("comm", "comms", "event", "events", "pid", "samples", "stack", "tid", "weight")

    def __init__(
        self,
        events: list[str],
        event: Int64s,
        pid: Int64s,
        tid: Int64s,
        comms: list[str],
        comm: Int64s,
        stack: Int64s,
        weight: Int64s,
        samples: Int64s,
    ) -> None:
        self.events, self.event, self.pid, self.tid = events, event, pid, tid
        self.comms, self.comm = comms, comm
        self.stack, self.weight, self.samples = stack, weight, samples

    @classmethod
    def of(cls, rows: Sequence[CpuRow]) -> CpuTable:
        if isinstance(rows, CpuTable):
            return rows
        return cls.from_columns(
            [r.event for r in rows],
            [r.pid for r in rows],
            [r.tid for r in rows],
            [r.comm for r in rows],
            [r.stack for r in rows],
            [r.weight for r in rows],
            [r.samples for r in rows],
        )

    @classmethod
    def from_columns(
        cls,
        events: Sequence[str],
        pids: Sequence[int | None],
        tids: Sequence[int | None],
        comms: Sequence[str],
        stacks: Sequence[int] | Int64s,
        weights: Sequence[int],
        samples: Sequence[int],
    ) -> CpuTable:
        event_names: dict[str, int] = {}
        comm_names: dict[str, int] = {}
        event = _ints([event_names.setdefault(e, len(event_names)) for e in events])
        comm = _ints([comm_names.setdefault(c, len(comm_names)) for c in comms])
        return cls(
            list(event_names),
            event,
            _ids(pids),
            _ids(tids),
            list(comm_names),
            comm,
            np.asarray(stacks, dtype=np.int64).reshape(len(stacks)),
            _ints(weights),
            _ints(samples),
        )

    def __len__(self) -> int:
        return len(self.stack)

    @overload
    def __getitem__(self, index: int) -> CpuRow: ...

    @overload
    def __getitem__(self, index: slice) -> list[CpuRow]: ...

    def __getitem__(self, index: int | slice) -> CpuRow | list[CpuRow]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        index = position(index, len(self))
        pid, tid = int(self.pid[index]), int(self.tid[index])
        return CpuRow(
            self.events[self.event[index]],
            None if pid == NO_ID else pid,
            None if tid == NO_ID else tid,
            self.comms[self.comm[index]],
            int(self.stack[index]),
            int(self.weight[index]),
            int(self.samples[index]),
        )

    def __iter__(self) -> Iterator[CpuRow]:
        events, comms = self.events, self.comms
        for e, pid, tid, c, stack, weight, samples in zip(
            self.event.tolist(),
            self.pid.tolist(),
            self.tid.tolist(),
            self.comm.tolist(),
            self.stack.tolist(),
            self.weight.tolist(),
            self.samples.tolist(),
            strict=True,
        ):
            yield CpuRow(
                events[e],
                None if pid == NO_ID else pid,
                None if tid == NO_ID else tid,
                comms[c],
                stack,
                weight,
                samples,
            )

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Sequence):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"CpuTable({len(self)} rows)"

    def chosen(self, event_test: Callable[[str], bool], pids: frozenset[int]) -> Int64s:
        """Positions of the rows of events passing `event_test` (each name tested once), and of
        these pids when some are given."""
        wanted_events = np.array([event_test(e) for e in self.events] or [False], dtype=bool)
        keep = wanted_events[self.event] if len(self) else np.zeros(0, dtype=bool)
        if pids:
            keep &= np.isin(self.pid, np.array(sorted(pids), dtype=np.int64))
        positions: Int64s = np.flatnonzero(keep)
        return positions

    def as_json(self) -> dict[str, Any]:
        return {
            "events": self.events,
            "comms": self.comms,
            **{name: pack_array(getattr(self, name)) for name in _COLUMNS},
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> CpuTable:
        columns = {name: unpack_array(data[name]).astype(np.int64) for name in _COLUMNS}
        return cls(events=list(data["events"]), comms=list(data["comms"]), **columns)


_COLUMNS = ("event", "pid", "tid", "comm", "stack", "weight", "samples")


def _ints(values: Sequence[int]) -> Int64s:
    return np.array(values, dtype=np.int64).reshape(len(values))


def _ids(values: Sequence[int | None]) -> Int64s:
    return _ints([NO_ID if v is None else v for v in values])
