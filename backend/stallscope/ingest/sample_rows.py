"""A batch of samples as binary COPY rows and per-stack totals, built a column at a time.

Formatting a text line a sample (its time through `datetime`, nine fields in an f-string) and adding
it to the totals one by one cost about 3.5 µs a sample on the writer thread, which the interpreter
runs in turn with the parser: a tenth of the load of a capture. Here each column is read out of the
batch once, checked and converted with numpy, and the rows are packed in groups that share their
shape: samples with the same command, event and missing fields have the same bytes after their
numbers, so a group is one structured array whose last field is those bytes.

What binary COPY cannot carry as the database would take it (a value outside its column's range, a
time past what int64 microseconds hold) is left to the caller's text rows, so the database gives the
same error it gave before.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from operator import attrgetter
from typing import Any

import numpy as np

from stallscope.ingest.clock import EpochMicros
from stallscope.ingest.model import Sample
from stallscope.ingest.stack_dictionary import COPY_BINARY_HEADER, COPY_BINARY_TRAILER, copy_text, db_text

COPY_SAMPLES_BINARY = (
    "COPY samples (capture_id, ts, pid, tid, cpu, weight, stack_id, comm, event) FROM STDIN (FORMAT BINARY)"
)
FIELDS = 9
POSTGRES_EPOCH_US = 946_684_800_000_000
"""1970-01-01 to 2000-01-01: binary timestamps count microseconds from the latter."""
INT4 = (-(2**31), 2**31 - 1)
INT2 = (-(2**15), 2**15 - 1)
NULL_FIELD = -1
OPTIONAL = (("pid", ">i4", INT4), ("tid", ">i4", INT4), ("cpu", ">i2", INT2))
"""The columns a sample may lack, with their binary type and range."""


def column(batch: list[Sample], field: str) -> list[Any]:
    """One field of every sample of a batch, read at C speed (the writers and the tally use it)."""
    return list(map(attrgetter(field), batch))


@dataclass(slots=True)
class NamePair:
    """One (command, event) pair as the writers store it."""

    event: str
    comm_text: str
    """The command as a text COPY field (the totals' rows and keys)."""
    tail: bytes
    """The command and the event as the last two binary COPY fields of a sample's row."""


class NamePairs:
    """Each distinct (command, event) pair of a capture gets a small number; kept for the whole load
    (a capture has a few thousand at most: commands are 15 characters, events a handful)."""

    def __init__(self) -> None:
        self._numbers: dict[tuple[str, str], int] = {}
        self.pairs: list[NamePair] = []

    def numbers(self, comms: list[str], events: list[str]) -> list[int]:
        keys = list(zip(comms, events, strict=True))
        found = list(map(self._numbers.get, keys))
        if None in found:
            for key in set(keys) - self._numbers.keys():
                self._add(*key)
            found = list(map(self._numbers.get, keys))
        return found  # type: ignore[return-value]  # every key was just added

    def _add(self, comm: str, event: str) -> None:
        stored_comm, stored_event = db_text(comm).encode(), event.encode()
        tail = struct.pack(">i", len(stored_comm)) + stored_comm + struct.pack(">i", len(stored_event))
        self._numbers[(comm, event)] = len(self.pairs)
        self.pairs.append(NamePair(event, copy_text(comm), tail + stored_event))


Totals = list[tuple[int, int | None, int | None, int, int, int]]
"""(name pair, pid, tid, stack id, weight, samples) per distinct key of a batch."""
ABSENT = 1 << 40
"""A missing pid or tid among the totals' keys (outside every int4)."""


@dataclass(frozen=True, slots=True)
class PackedBatch:
    copy_data: bytes
    """Binary COPY data of the rows it packed, header and trailer included (empty if none)."""
    left_over: list[int]
    """Positions in the batch of the samples it did not pack (see the module docstring)."""
    totals: Totals
    """(name pair, pid, tid, stack id, weight, samples) of every group of the batch, packed or not."""


def pack_batch(
    batch: list[Sample], stack_ids: list[int], capture_id: int, to_epoch_us: EpochMicros, names: NamePairs
) -> PackedBatch:
    """The batch's rows as binary COPY, and its totals per (name pair, thread, stack)."""
    count = len(batch)
    pair = np.array(names.numbers(column(batch, "comm"), column(batch, "event")), dtype=np.int64)
    stack = np.array(stack_ids, dtype=np.int64)
    columns = _columns(batch, to_epoch_us)
    if columns is None:  # past int64: the text rows say what the database makes of it
        return PackedBatch(b"", list(range(count)), _totals_one_by_one(batch, pair, stack))
    columns["stack_id"] = stack
    fits, missing = columns.pop("fits"), columns.pop("missing")
    packed = np.flatnonzero(fits)
    group = pair[packed] * (1 << len(OPTIONAL)) + missing[packed]
    order = np.argsort(group, kind="stable")
    packed, group = packed[order], group[order]
    pieces = [COPY_BINARY_HEADER]
    for rows in np.split(packed, np.flatnonzero(np.diff(group)) + 1) if len(packed) else []:
        first = int(rows[0])
        tail = names.pairs[int(pair[first])].tail
        pieces.append(_group_rows(rows, int(missing[first]), tail, capture_id, columns))
    pieces.append(COPY_BINARY_TRAILER)
    copy_data = b"".join(pieces) if len(packed) else b""
    return PackedBatch(copy_data, np.flatnonzero(~fits).tolist(), _totals(pair, stack, columns, missing))


def _columns(batch: list[Sample], to_epoch_us: EpochMicros) -> dict[str, np.ndarray] | None:
    """The batch's numbers as int64 columns, `missing` (bits of the `OPTIONAL` columns a sample
    lacks) and `fits` (whether binary COPY can carry the sample); None if a number is past int64."""
    count = len(batch)
    times = _integers(column(batch, "time_ns"))
    weights = _integers(column(batch, "weight"))
    if times is None or weights is None:
        return None
    ts = to_epoch_us.many(times) - POSTGRES_EPOCH_US
    fits = (times >= 0) & (times < 1 << 62) & (weights != np.iinfo(np.int64).min)
    missing = np.zeros(count, dtype=np.int64)
    columns = {"ts": ts, "weight": weights}
    for bit, (name, _, (low, high)) in enumerate(OPTIONAL):
        values = column(batch, name)
        absent = np.array([value is None for value in values]) if None in values else np.zeros(count, bool)
        numbers = _integers(values)
        if numbers is None:
            return None
        fits &= absent | ((numbers >= low) & (numbers <= high))
        missing |= absent.astype(np.int64) << bit
        columns[name] = numbers
    columns["fits"], columns["missing"] = fits, missing
    return columns


def _integers(column: list[Any]) -> np.ndarray | None:
    """The column as int64, with None as 0; None when a value does not fit."""
    if None in column:
        column = [value or 0 for value in column]
    try:
        return np.array(column, dtype=np.int64)
    except OverflowError:
        return None


def _group_rows(
    rows: np.ndarray, missing: int, tail: bytes, capture_id: int, columns: dict[str, np.ndarray]
) -> bytes:
    """The rows at `rows`, which share their missing fields (bits of `missing`) and names (`tail`)."""
    numbers: list[tuple[str, str]] = [("capture_id", ">i4"), ("ts", ">i8")]
    numbers += [(name, kind) for bit, (name, kind, _) in enumerate(OPTIONAL) if not missing >> bit & 1]
    numbers += [("weight", ">i8"), ("stack_id", ">i8")]
    present = dict(numbers)
    layout: list[tuple[str, str]] = [("fields", ">i2")]
    for name in ("capture_id", "ts", *(name for name, _, _ in OPTIONAL), "weight", "stack_id"):
        layout.append((f"{name}_size", ">i4"))
        if name in present:
            layout.append((name, present[name]))
    layout.append(("tail", f"V{len(tail)}"))
    packed = np.empty(len(rows), dtype=np.dtype(layout))
    packed["fields"] = FIELDS
    packed["tail"] = np.void(tail)
    for name, _, _ in OPTIONAL:
        if name not in present:
            packed[f"{name}_size"] = NULL_FIELD
    for name, kind in numbers:
        packed[f"{name}_size"] = np.dtype(kind).itemsize
        packed[name] = capture_id if name == "capture_id" else columns[name][rows]
    return packed.tobytes()


def _totals(
    pair: np.ndarray, stack: np.ndarray, columns: dict[str, np.ndarray], missing: np.ndarray
) -> Totals:
    if not len(pair):
        return []
    pid = np.where(missing & 1, ABSENT, columns["pid"])
    tid = np.where(missing & 2, ABSENT, columns["tid"])
    weight = columns["weight"]
    order = np.lexsort((stack, tid, pid, pair))
    keys = np.stack((pair[order], pid[order], tid[order], stack[order]), axis=1)
    starts = np.concatenate(([0], np.flatnonzero(np.any(keys[1:] != keys[:-1], axis=1)) + 1))
    samples = np.diff(np.append(starts, len(order)))
    largest = max(abs(int(weight.min())), abs(int(weight.max())))
    if largest * len(weight) >= 1 << 62:  # sums could pass int64: add them as Python ints
        ends = [*starts[1:].tolist(), len(order)]
        sums = [sum(weight[order[a:b]].tolist()) for a, b in zip(starts.tolist(), ends, strict=True)]
    else:
        sums = np.add.reduceat(weight[order], starts).tolist()
    return [
        (p, None if i == ABSENT else i, None if t == ABSENT else t, s, w, n)
        for (p, i, t, s), w, n in zip(keys[starts].tolist(), sums, samples.tolist(), strict=True)
    ]


def _totals_one_by_one(batch: list[Sample], pair: np.ndarray, stack: np.ndarray) -> Totals:
    """`_totals` for a batch with a number past int64, a sample at a time."""
    first: dict[tuple[int, int | None, int | None, int], int] = {}
    weights: list[int] = []
    samples: list[int] = []
    for pair_number, pid, tid, stack_id, weight in zip(
        pair.tolist(),
        column(batch, "pid"),
        column(batch, "tid"),
        stack.tolist(),
        column(batch, "weight"),
        strict=True,
    ):
        key = (pair_number, pid, tid, stack_id)
        index = first.get(key)
        if index is None:
            first[key] = len(weights)
            weights.append(weight)
            samples.append(1)
        else:
            weights[index] += weight
            samples[index] += 1
    return [(*key, weights[i], samples[i]) for key, i in first.items()]
