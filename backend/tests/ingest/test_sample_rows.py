"""Samples stored through binary COPY read back as the text rows stored them: every column, every
missing field, odd names, the edges of each column's range, and the per-stack totals."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import psycopg
import pytest

from stallscope.db import libpq_url
from stallscope.ingest.clock import ClockMapping, StartPin
from stallscope.ingest.model import Frame, Sample
from stallscope.ingest.sample_rows import NamePairs, pack_batch
from stallscope.ingest.sample_store import SampleWriter
from stallscope.ingest.stack_dictionary import StackDictionary

Conn = psycopg.Connection[tuple[Any, ...]]
CAPTURE_ID = 987_654
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
STACK = (Frame("main"), Frame("work"))
OTHER = (Frame("main"), Frame("idle"))


@pytest.fixture
def connections(database_url: str) -> Iterator[tuple[Conn, Conn]]:
    """The writer's connection (rolled back afterwards) and the stack dictionary's (autocommit)."""
    url = libpq_url(database_url)
    with psycopg.connect(url) as main, psycopg.connect(url, autocommit=True) as stacks:
        yield main, stacks
        main.rollback()


def sample(**fields: Any) -> Sample:
    values: dict[str, Any] = {"line": 1, "comm": "app", "pid": 10, "tid": 11, "cpu": 0}
    values.update(time_ns=5_000_000_123, event="cycles", period=None)
    values.update(fields)
    return Sample(stack=values.pop("stack", STACK), **values)


ODD = [
    sample(),
    sample(pid=None),
    sample(tid=None, cpu=None),
    sample(pid=None, tid=None, cpu=None, time_ns=None),
    sample(comm="tab\there\\and\nnew line", event="sched:sched_switch"),
    sample(comm="nul\0byte é 名前", event="événement"),
    sample(pid=2**31 - 1, tid=-(2**31), cpu=2**15 - 1, period=2**63 - 1),
    sample(period=0, time_ns=1_700_000_000_123_456_789),  # already an epoch time
    sample(stack=OTHER, time_ns=999),
    sample(stack=(), comm=""),
]


def stored(conn: Conn) -> list[tuple[Any, ...]]:
    return conn.execute(
        "SELECT ts, pid, tid, comm, cpu, event, weight, (SELECT frame_ids FROM stacks WHERE id = stack_id) "
        "FROM samples WHERE capture_id = %s ORDER BY 1, 2, 3, 4, 5, 6, 7",
        (CAPTURE_ID,),
    ).fetchall()


def write(conn: Conn, stacks: Conn, samples: list[Sample], mapping: ClockMapping) -> SampleWriter:
    writer = SampleWriter(conn, StackDictionary(stacks), CAPTURE_ID, mapping.to_epoch_us())
    for record in samples:
        writer.add(record)
    writer.finish()
    return writer


def frame_ids(conn: Conn, stack: tuple[Frame, ...]) -> list[int]:
    found = []
    for frame in stack:
        row = conn.execute(
            "SELECT id FROM frames WHERE name = %s AND kind = %s", (frame.name, frame.kind.value)
        ).fetchone()
        assert row is not None
        found.append(row[0])
    return found


def expected_row(conn: Conn, s: Sample, offset_ns: int) -> tuple[Any, ...]:
    ns = s.time_ns or 0
    if ns < 10**18:
        ns += offset_ns
    micros = ns // 1000
    comm = s.comm.replace("\0", "\\0")
    return (
        EPOCH + timedelta(microseconds=micros),
        s.pid,
        s.tid,
        comm,
        s.cpu,
        s.event,
        s.weight,
        frame_ids(conn, s.stack),
    )


def in_order(row: tuple[Any, ...]) -> tuple[Any, ...]:
    """ORDER BY's order: NULLs last."""
    return tuple((value is None, value) for value in row[:7])


@pytest.mark.parametrize("offset_ns", [0, 1_764_000_000_000_000_000])
def test_binary_rows_read_back_as_given(connections: tuple[Conn, Conn], offset_ns: int) -> None:
    main, stacks = connections
    write(main, stacks, ODD, ClockMapping("user-offset", offset_ns, 0, ""))
    assert stored(main) == sorted((expected_row(main, s, offset_ns) for s in ODD), key=in_order)


def test_totals_add_up_per_thread_and_stack(connections: tuple[Conn, Conn]) -> None:
    main, stacks = connections
    batch = [
        sample(period=5),
        sample(period=7),
        sample(pid=None, period=1),
        sample(pid=None, period=2),
        sample(tid=12, period=3),
        sample(stack=OTHER, period=4),
        sample(comm="other", period=6),
    ]
    write(main, stacks, batch, ClockMapping("none", 0, 0, ""))
    totals = main.execute(
        "SELECT comm, pid, tid, (SELECT frame_ids FROM stacks WHERE id = stack_id), "
        "sum(weight), sum(samples) FROM capture_stack_totals WHERE capture_id = %s "
        "GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 5",
        (CAPTURE_ID,),
    ).fetchall()
    work, idle = frame_ids(main, STACK), frame_ids(main, OTHER)
    assert totals == [
        ("app", 10, 11, idle, 4, 1),
        ("app", 10, 11, work, 12, 2),
        ("app", 10, 12, work, 3, 1),
        ("app", None, 11, work, 3, 2),
        ("other", 10, 11, work, 6, 1),
    ]


def test_a_value_out_of_its_columns_range_is_refused_by_the_database(connections: tuple[Conn, Conn]) -> None:
    """Binary COPY cannot carry it: the sample goes as a text row, and the database refuses it as
    it always did, instead of storing a wrapped number."""
    batch = [sample(), sample(pid=2**31)]
    packed = pack_batch(batch, [1, 1], CAPTURE_ID, ClockMapping("none", 0, 0, "").to_epoch_us(), NamePairs())
    assert packed.left_over == [1]
    main, stacks = connections
    with pytest.raises(psycopg.errors.NumericValueOutOfRange):
        write(main, stacks, batch, ClockMapping("none", 0, 0, ""))


def test_a_start_pin_applies_to_the_first_time_of_the_first_batch() -> None:
    pin = StartPin(start_ns=1_764_000_000_000_000_000)
    to_epoch_us = ClockMapping("user-start", 0, 0, "", pin=pin).to_epoch_us()
    batch = [sample(time_ns=2_000), sample(time_ns=3_000), sample(time_ns=1_700_000_000_000_000_000)]
    packed = pack_batch(batch, [1, 1, 1], CAPTURE_ID, to_epoch_us, NamePairs())
    assert packed.left_over == []
    assert pin.offset_ns == pin.start_ns - 2_000
    assert to_epoch_us(3_000) == (pin.start_ns + 1_000) // 1000
