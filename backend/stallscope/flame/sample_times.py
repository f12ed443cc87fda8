"""A capture's CPU samples as arrays sorted by time, so a view of a time range sums them in process.

The flame graph of a range, and each side of a diff, used to be one aggregate in the database per
request: for the 60,000 samples of half a deep capture, 30 ms of hashing by (process, stack), the
two sides of a diff at once on two cores while the API process waited. The samples of a capture
never change once parsed, so the parse keeps them beside the call-site tree as four arrays (time in
epoch microseconds, sorted; the (process, stack) pair as its place in the tree's `pair_keys`;
weight; event as an index into a list of names): a range is then two binary searches and one
sum over its slice, a few milliseconds, with nothing asked of the database.

Only for what the arrays can answer: CPU samples of one event, any time range, any process; a
thread or process-id filter, a time-of-day window and the other sources are read from the database
as before. Captures of more than `MAX_SAMPLES` samples keep none (21 bytes a sample: a large
capture's arrays would cost more to read per view than its aggregate).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

import numpy as np
from numpy.typing import NDArray
from sqlalchemy import text
from sqlalchemy.orm import Session

from stallscope.analysis.callsites import CallsiteTree, Int32s, Int64s
from stallscope.db import session_connection
from stallscope.flame.callsite_store import Arrays, pack, unpack
from stallscope.flame.schemas import SampleFilter
from stallscope.kit.lru import LruCache
from stallscope.kit.units import epoch_ns

MAX_SAMPLES = 500_000
"""Per capture: about 10 MB of arrays, read in a few milliseconds."""
MAX_VIEW_SAMPLES = 1_000_000
"""Per view: past this, a view of several captures sums its range in the database."""
CACHE_BYTES = 16 * 1024 * 1024
"""Arrays kept per process: a 120,000-sample capture's take 2.4 MB."""

_SAMPLES = """
    SELECT count(*),
           string_agg(int8send((extract(epoch FROM s.ts) * 1000000)::bigint), ''::bytea),
           string_agg(int4send((c.i - 1)::int), ''::bytea), string_agg(int8send(s.stack_id), ''::bytea),
           string_agg(int8send(s.weight), ''::bytea), string_agg(int2send((e.i - 1)::smallint), ''::bytea)
    FROM samples AS s
    JOIN unnest(CAST(%(comms)s AS text[])) WITH ORDINALITY AS c(name, i) ON c.name = s.comm
    JOIN unnest(CAST(%(events)s AS text[])) WITH ORDINALITY AS e(name, i) ON e.name = s.event
    WHERE s.capture_id = %(id)s
"""
"""Every sample of a capture as big-endian binary columns (a few copies, where arrays of numbers
took a Python object per value), its process and event as indexes into the lists given (hash joins:
looking each up in an array per row took twice as long)."""


@dataclass(frozen=True, slots=True)
class SampleTimes:
    """One capture's CPU samples, sorted by time."""

    events: tuple[str, ...]
    ts_us: Int64s
    pair: Int32s
    """Each sample's (process, stack) pair: its index in the capture tree's `pair_keys`."""
    weight: Int64s
    event: NDArray[np.int16]
    """Each sample's event: its index in `events`."""

    @property
    def nbytes(self) -> int:
        return self.ts_us.nbytes + self.pair.nbytes + self.weight.nbytes + self.event.nbytes


def build(
    session: Session, capture_id: int, tree: CallsiteTree, max_samples: int = MAX_SAMPLES
) -> SampleTimes | None:
    """The capture's samples as arrays, or None past `max_samples` (or if a sample's pair is not in
    `tree`, which then is stale: the views read the database)."""
    count = session.execute(
        text("SELECT sample_count FROM captures WHERE id = :id"), {"id": capture_id}
    ).scalar_one_or_none()
    if count is None or count > max_samples:
        return None
    events = sorted(tree.whole)  # the events the capture's samples have, from its stack totals
    if len(events) >= 1 << 15:
        return None
    with session_connection(session).cursor(binary=True) as cursor:
        cursor.execute(_SAMPLES, {"id": capture_id, "comms": list(tree.comms), "events": events})
        row = cursor.fetchone()
    assert row is not None  # an aggregate
    found, ts, comm, stack, weight, event = row
    if found != count:  # a process or event the tree does not have: it is stale
        return None
    if not count:
        ts = comm = stack = weight = event = b""
    keys = _column(stack, ">i8") * max(len(tree.comms), 1) + _column(comm, ">i4")
    at = np.minimum(np.searchsorted(tree.pair_keys, keys), max(len(tree.pair_keys) - 1, 0))
    if len(keys) and not np.array_equal(tree.pair_keys[at], keys):
        return None
    times = _column(ts, ">i8")
    order = np.argsort(times, kind="stable")
    return SampleTimes(
        events=tuple(events),
        ts_us=times[order],
        pair=at.astype(np.int32)[order],
        weight=_column(weight, ">i8")[order],
        event=_column(event, ">i2").astype(np.int16)[order],
    )


def _column(data: bytes, wire: str) -> Int64s:
    """A column of `_SAMPLES` (big-endian, as PostgreSQL sends numbers) as native 64-bit integers."""
    return np.frombuffer(data, dtype=wire).astype(np.int64)


def to_bytes(times: SampleTimes) -> bytes:
    arrays: Arrays = {"ts_us": times.ts_us, "pair": times.pair, "weight": times.weight, "event": times.event}
    return pack(arrays, {"events": list(times.events)})


def from_bytes(data: bytes) -> SampleTimes:
    head, arrays = unpack(data)
    events = head["events"]
    assert isinstance(events, list)
    return SampleTimes(tuple(events), arrays["ts_us"], arrays["pair"], arrays["weight"], arrays["event"])


def store(session: Session, capture_id: int, parsed_at: datetime, times: SampleTimes) -> None:
    """Keep the arrays beside this parse's stored tree (stored first, by the caller); caller commits."""
    session.execute(
        text(
            "UPDATE capture_callsite_trees SET sample_times = :data "
            "WHERE capture_id = :id AND parsed_at = :parsed_at"
        ),
        {"id": capture_id, "parsed_at": parsed_at, "data": to_bytes(times)},
    )


def load(session: Session, capture_id: int, parsed_at: datetime) -> SampleTimes | None:
    """The arrays stored for this parse of the capture, or None. Read in PostgreSQL's binary format
    (a `bytea` as text travels hex-encoded, twice its size)."""
    with session_connection(session).cursor(binary=True) as cursor:
        cursor.execute(
            "SELECT sample_times FROM capture_callsite_trees WHERE capture_id = %s AND parsed_at = %s",
            (capture_id, parsed_at),
        )
        row = cursor.fetchone()
    if row is None or row[0] is None:
        return None
    return from_bytes(bytes(row[0]))


_cache: LruCache[str, SampleTimes] = LruCache(max_size=CACHE_BYTES, size=lambda times: times.nbytes)


def cached(session: Session, capture_id: int, parsed_at: datetime) -> SampleTimes | None:
    """`load`, kept for the next views of the capture (a parsed capture never changes: a re-parse
    changes `parsed_at`, which is part of the key). A capture without arrays is asked again."""
    key = f"{capture_id}@{parsed_at.isoformat()}"
    found = _cache.get(key)
    if found is None:
        found = load(session, capture_id, parsed_at)
        if found is not None:
            _cache.put(key, found)
    return found


def clear_cache() -> None:
    _cache.clear()


def answers(flt: SampleFilter) -> bool:
    """Whether sample arrays can answer the filter (what they hold: time, pair, weight, event)."""
    return (
        flt.source == "samples"
        and flt.event is not None
        and flt.pid is None
        and flt.tid is None
        and flt.within is None
    )


@dataclass(frozen=True, slots=True)
class PairWeights:
    """Per (process, stack) pair the range has samples of: its index in the tree's `pair_keys`, its
    summed weight and its samples."""

    pairs: Int64s
    weights: Int64s
    samples: Int64s


def pair_weights(times: SampleTimes, tree: CallsiteTree, flt: SampleFilter) -> PairWeights:
    """The filter's samples summed per pair: [start, end) found by binary search (times are epoch
    microseconds, as stored; a naive time is taken as UTC), then one event and, if set, one process."""
    assert flt.event is not None
    lo = 0 if flt.start is None else _first_at(times, flt.start)
    hi = len(times.ts_us) if flt.end is None else max(lo, _first_at(times, flt.end))
    pair, weight = times.pair[lo:hi], times.weight[lo:hi]
    chosen = _chosen(times, flt.event, lo, hi)
    if flt.comm is not None:
        comms = (tree.pair_keys % max(len(tree.comms), 1))[pair]
        wanted = tree.comms.index(flt.comm) if flt.comm in tree.comms else -1
        chosen = comms == wanted if chosen is None else chosen & (comms == wanted)
    if chosen is not None:
        pair, weight = pair[chosen], weight[chosen]
    count = len(tree.pair_keys)
    samples = np.bincount(pair, minlength=count)
    weights = np.zeros(count, dtype=np.int64)
    np.add.at(weights, pair, weight)
    present = np.flatnonzero(samples)
    return PairWeights(present, weights[present], samples[present].astype(np.int64))


def _chosen(times: SampleTimes, event: str, lo: int, hi: int) -> NDArray[np.bool_] | None:
    """The slice's samples of `event`; None when every sample of the capture is of it."""
    if times.events == (event,):
        return None
    code = times.events.index(event) if event in times.events else -1
    chosen: NDArray[np.bool_] = times.event[lo:hi] == code
    return chosen


def _first_at(times: SampleTimes, moment: datetime) -> int:
    """Where the first sample at or after `moment` is."""
    return int(np.searchsorted(times.ts_us, _epoch_us(moment), "left"))


def _epoch_us(moment: datetime) -> int:
    """Exact epoch microseconds, as the arrays hold them; a naive time is UTC, as stored times are."""
    return epoch_ns(moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)) // 1000
