"""A side's digests as arrays: what `Profile` asks its questions of.

Stacks and CPU rows come packed (`stack_table.py`, `cpu_table.py`); the rows of one kind of all a
side's digests are put end to end as columns (`Rows`), so that "which rows have a frame matching
`mutex`, and what do they weigh by thread" is a few array operations over all of them, and only
what matched is gone through one by one, by distinct stack and thread rather than by row. On a deep
capture (66k rows, 44k stacks of up to 127 frames) a question takes milliseconds.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from stallscope.analysis.findings.cpu_table import NO_ID, CpuTable
from stallscope.analysis.findings.digest import CaptureDigest, StackNames, WaitRow
from stallscope.analysis.findings.stack_table import Flags, Int64s, StackTable

ThreadKey = tuple[int | None, int | None, str]
"""(pid, tid, comm)."""
ProcessKey = tuple[int | None, str]
"""(pid, comm)."""


class DigestArrays:
    """One digest's stacks and CPU rows as arrays, and what detectors ask of them, each worked out
    once."""

    def __init__(self, digest: CaptureDigest) -> None:
        self.digest = digest
        self.table = StackTable.of(digest.stacks)
        self.cpu = CpuTable.of(digest.cpu)
        self._lowered: tuple[str, Int64s] | None = None
        """Every frame name lowered, joined by NUL, and where each starts."""
        self._first: dict[tuple[str, ...], Int64s] = {}
        self._first_lists: dict[tuple[str, ...], list[int]] = {}
        self._names: dict[int, StackNames] = {}
        self._kinds: tuple[Flags, Flags] | None = None
        self._name_ids: tuple[list[str], Int64s] | None = None

    def first(self, terms: tuple[str, ...]) -> Int64s:
        """Per stack, the position of its outermost frame holding one of `terms` (lowercase, as
        `Terms` keeps them) in its lowered name, -1 where none does. Frames are matched once per
        digest, and stacks all at once."""
        found = self._first.get(terms)
        if found is None:
            found = self._first[terms] = self.table.first_hits(self._matching(terms))
        return found

    def _matching(self, terms: tuple[str, ...]) -> Flags:
        """Per frame, whether its lowered name holds one of `terms`: each term looked for in all
        the lowered names at once, joined by NUL (no term holds one, so no match spans two names),
        rather than in each name."""
        if self._lowered is None:
            lowered = [name.lower() for name, _ in self.digest.frames]
            starts = np.zeros(len(lowered), dtype=np.int64)
            np.cumsum([len(low) + 1 for low in lowered[:-1]], out=starts[1:])
            self._lowered = ("\0".join(lowered), starts)
        text, starts = self._lowered
        flagged = np.zeros(len(starts), dtype=bool)
        for term in terms:
            if not term:
                flagged[:] = True
                continue
            found_at, at = [], text.find(term)
            while at >= 0:
                found_at.append(at)
                at = text.find(term, at + 1)
            flagged[np.searchsorted(starts, found_at, side="right") - 1] = True
        return flagged

    def stacks_with(self, frame_test: Callable[[str], bool]) -> Flags:
        """Per stack, whether some frame's name passes `frame_test` (a signature's expression):
        each distinct frame tested once, the stacks all at once."""
        frames = self.digest.frames
        flagged = np.fromiter((bool(frame_test(name)) for name, _ in frames), dtype=bool, count=len(frames))
        hits: Flags = self.table.first_hits(flagged) >= 0
        return hits

    def first_list(self, terms: tuple[str, ...]) -> list[int]:
        found = self._first_lists.get(terms)
        if found is None:
            found = self._first_lists[terms] = self.first(terms).tolist()
        return found

    def names(self, index: int) -> StackNames:
        found = self._names.get(index)
        if found is None:
            found = self._names[index] = self.digest.stack_names(index)
        return found

    def name_ids(self) -> tuple[list[str], Int64s]:
        """The distinct frame names, and per frame index its name's number (frames of one name and
        different kinds share it)."""
        if self._name_ids is None:
            numbered: dict[str, int] = {}
            ids = [numbered.setdefault(name, len(numbered)) for name, _ in self.digest.frames]
            self._name_ids = (list(numbered), np.array(ids, dtype=np.int64).reshape(len(ids)))
        return self._name_ids

    def kinds(self) -> tuple[Flags, Flags]:
        """Per stack: (its leaf is a kernel frame, some frame of it is not)."""
        if self._kinds is None:
            frames = self.digest.frames
            kernel = np.fromiter((kind == "kernel" for _, kind in frames), dtype=bool, count=len(frames))
            self._kinds = (self.table.leaf_flagged(kernel), self.table.any_unflagged(kernel))
        return self._kinds


@dataclass(slots=True)
class Rows:
    """Rows of one kind (CPU samples, fault samples, off-CPU waits) of a side's targets, in the
    order `Profile.cpu_rows()` and the others list them, with their numbers as columns.

    A question about the rows is then array operations over all of them, and only what it matched
    is gone through one by one, by distinct stack and thread rather than by row.
    """

    positions: list[Int64s]
    """Per digest (in the order of the side's digests), where its rows are in its own list."""
    bounds: list[tuple[int, int]]
    """Each digest's rows here: [lo, hi)."""
    stack: Int64s
    weight: Int64s
    """CPU: the event's unit; waits: the whole interval (ns)."""
    count: Int64s
    """Samples, or waits."""
    thread: Int64s
    """Index into `thread_keys`, numbered in the order the threads first occur."""
    thread_keys: list[ThreadKey]
    process: Int64s
    """Index into `process_keys`, numbered in the order the processes first occur."""
    process_keys: list[ProcessKey]
    blocked: Int64s
    """Waits: the time before the wake-up (ns); zero for samples."""
    longest: Int64s
    state: Int64s
    """Waits: index into `states`."""
    states: list[str]

    def __len__(self) -> int:
        return len(self.stack)

    @classmethod
    def of_samples(cls, tables: list[CpuTable], positions: list[Int64s]) -> Rows:
        comms: dict[str, int] = {}
        codes = [np.array([comms.setdefault(c, len(comms)) for c in t.comms] or [0]) for t in tables]
        picked = list(zip(tables, positions, strict=True))
        weight = _joined([t.weight[at] for t, at in picked])
        zeros = np.zeros(len(weight), dtype=np.int64)
        return cls._of(
            positions,
            stack=_joined([t.stack[at] for t, at in picked]),
            weight=weight,
            count=_joined([t.samples[at] for t, at in picked]),
            ids=(
                _joined([t.pid[at] for t, at in picked]),
                _joined([t.tid[at] for t, at in picked]),
                _joined([code[t.comm[at]] for (t, at), code in zip(picked, codes, strict=True)]),
                list(comms),
            ),
            blocked=zeros,
            longest=zeros,
            states=({}, zeros),
        )

    @classmethod
    def of_waits(cls, rows: list[list[WaitRow]], positions: list[Int64s]) -> Rows:
        flat = [row for part in rows for row in part]
        comms: dict[str, int] = {}
        states: dict[str, int] = {}
        return cls._of(
            positions,
            stack=_column([r.stack for r in flat]),
            weight=_column([r.total_ns for r in flat]),
            count=_column([r.count for r in flat]),
            ids=(
                _column([NO_ID if r.pid is None else r.pid for r in flat]),
                _column([NO_ID if r.tid is None else r.tid for r in flat]),
                _column([comms.setdefault(r.comm, len(comms)) for r in flat]),
                list(comms),
            ),
            blocked=_column([r.blocked_ns for r in flat]),
            longest=_column([r.max_ns for r in flat]),
            states=(states, _column([states.setdefault(r.state or "?", len(states)) for r in flat])),
        )

    @classmethod
    def _of(
        cls,
        positions: list[Int64s],
        stack: Int64s,
        weight: Int64s,
        count: Int64s,
        ids: tuple[Int64s, Int64s, Int64s, list[str]],
        blocked: Int64s,
        longest: Int64s,
        states: tuple[dict[str, int], Int64s],
    ) -> Rows:
        ends = np.cumsum([len(at) for at in positions], dtype=np.int64).tolist()
        pid, tid, comm, comms = ids
        thread, threads = _numbered(pid, tid, comm)
        process, processes = _numbered(pid, comm)
        return cls(
            positions=positions,
            bounds=list(zip([0, *ends[:-1]], ends, strict=True)),
            stack=stack,
            weight=weight,
            count=count,
            thread=thread,
            thread_keys=[(_id(p), _id(t), comms[c]) for p, t, c in threads],
            process=process,
            process_keys=[(_id(p), comms[c]) for p, c in processes],
            blocked=blocked,
            longest=longest,
            state=states[1],
            states=list(states[0]),
        )


def _numbered(*columns: Int64s) -> tuple[Int64s, list[tuple[int, ...]]]:
    """Per row, the number of its key (its values in the columns), keys numbered in the order they
    first occur; and the keys in that order."""
    keys: dict[tuple[int, ...], int] = {}
    numbered = [keys.setdefault(key, len(keys)) for key in zip(*(c.tolist() for c in columns), strict=True)]
    return np.array(numbered, dtype=np.int64).reshape(len(numbered)), list(keys)


def _id(value: int) -> int | None:
    return None if value == NO_ID else value


def _joined(parts: list[Int64s]) -> Int64s:
    return np.concatenate(parts).astype(np.int64) if parts else np.zeros(0, dtype=np.int64)


def _column(values: list[int]) -> Int64s:
    return np.array(values, dtype=np.int64).reshape(len(values))


def sum_by_key(keys: Int64s, weights: Int64s) -> tuple[Int64s, list[int], Int64s]:
    """The distinct keys in the order they first occur, the weights of each summed (in integers,
    exactly as row-by-row sums), and where each first occurs in `keys`."""
    distinct, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
    order = np.argsort(inverse, kind="stable")
    starts = np.flatnonzero(np.concatenate(([True], np.diff(inverse[order]) != 0)))
    sums = np.add.reduceat(weights[order], starts) if len(order) else np.zeros(0, dtype=np.int64)
    by_first = np.argsort(first, kind="stable")
    return distinct[by_first], sums[by_first].tolist(), first[by_first]
