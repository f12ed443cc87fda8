"""Range views summed from a capture's sample arrays give exactly what the database's aggregate gives.

The arrays (`flame/sample_times.py`) answer flame graphs and diff sides of a time range, one event,
any process; both ways are compared here on the same stored capture, over ranges whose ends fall on
samples, between them, outside the capture and the wrong way round, and over two captures at once.
"""

from __future__ import annotations

import random
import subprocess
from collections import Counter
from collections.abc import Iterator
from datetime import datetime, timedelta

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text
from sqlalchemy.orm import Session

from stallscope.db import get_session_factory
from stallscope.flame import callsite_trees, repository, sample_times
from stallscope.flame.schemas import SampleFilter, WithinSecond
from stallscope.flame.stack_rows import StackWeightArrays, from_sample_times, stack_weight_arrays
from stallscope.models import Capture
from tests.fixtures.factories import make_incident, upload_bytes
from tests.fixtures.worker import wait_parsed

COMMS = ["db", "web", "kworker/0:1"]
EVENTS = ["cpu-clock", "page-faults"]
FRAMES = ["main", "query", "scan", "sort", "serve", "memcpy", "schedule", "[unknown]"]


def perf_script(seed: int, samples: int) -> str:
    """Samples over 20 s with ties, two events, three processes and stacks of 1-5 frames."""
    rng = random.Random(seed)
    lines = []
    t = 5000.0
    for _ in range(samples):
        t += rng.choice([0.0, 0.000001, 0.0004, 0.01, 0.05])  # ties, neighbours a microsecond apart
        comm = rng.choice(COMMS)
        event = rng.choices(EVENTS, weights=[4, 1])[0]
        period = rng.choice([1, 1_000_000, 1_010_101]) if event == "cpu-clock" else 1
        frames = rng.sample(FRAMES, rng.randint(1, 5))
        pid, tid = 100 + COMMS.index(comm), rng.randint(100, 103)
        lines.append(f"{comm} {pid}/{tid} [000] {t:.6f}: {period} {event}:")
        lines += [f"\t    {0x1000 + i:x} {f} (/usr/bin/{comm})" for i, f in enumerate(frames)]
        lines.append("")
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def capture_ids(api: TestClient, worker: subprocess.Popen[bytes]) -> list[int]:
    incident = make_incident(api)
    ids = []
    for seed in (1, 2):
        capture = upload_bytes(api, incident["id"], perf_script(seed, 1500).encode(), f"range-{seed}.txt")
        parsed = wait_parsed(api, capture["id"])
        assert parsed["status"] == "ready", parsed
        ids.append(int(capture["id"]))
    return ids


@pytest.fixture
def session(database_url: str) -> Iterator[Session]:
    with get_session_factory(database_url)() as session:
        yield session


def summed(rows: StackWeightArrays) -> Counter[tuple[str, int, str]]:
    """Rows as (process, stack) -> weight and samples; a pair listed twice (two captures) adds up."""
    found: Counter[tuple[str, int, str]] = Counter()
    for comm, stack, weight, samples in zip(
        rows.comms, rows.stacks.tolist(), rows.weights.tolist(), rows.samples.tolist(), strict=True
    ):
        found[(comm, stack, "weight")] += weight
        found[(comm, stack, "samples")] += samples
    return found


def both_ways(session: Session, flt: SampleFilter) -> tuple[Counter[tuple[str, int, str]], ...]:
    captures = [c for c in (session.get(Capture, i) for i in flt.capture_ids) if c is not None]
    local = from_sample_times(session, flt, captures)
    assert local is not None, f"the sample arrays should answer {flt}"
    return summed(local), summed(stack_weight_arrays(repository.stack_weight_columns(session, flt)))


def instants(session: Session, capture_ids: list[int]) -> list[datetime]:
    query = text("SELECT DISTINCT ts FROM samples WHERE capture_id = ANY(:ids) ORDER BY ts")
    return list(session.execute(query, {"ids": capture_ids}).scalars())


def test_the_parse_keeps_every_sample_sorted_by_time(session: Session, capture_ids: list[int]) -> None:
    for capture_id in capture_ids:
        capture = session.get(Capture, capture_id)
        assert capture is not None
        assert capture.parsed_at is not None
        times = sample_times.load(session, capture_id, capture.parsed_at)
        assert times is not None
        assert len(times.ts_us) == capture.sample_count
        assert (times.ts_us[1:] >= times.ts_us[:-1]).all()
        assert set(times.events) == set(EVENTS)


@pytest.mark.parametrize("seed", range(6))
def test_ranges_sum_to_what_the_database_sums(session: Session, capture_ids: list[int], seed: int) -> None:
    rng = random.Random(seed)
    one = capture_ids[:1]
    moments = instants(session, one)
    near = [moments[0] - timedelta(seconds=1), moments[-1] + timedelta(seconds=1)]
    for _ in range(25):
        start, end = (rng.choice(moments + near) for _ in range(2))
        if rng.random() < 0.3:  # between two samples, a microsecond off one
            start += timedelta(microseconds=rng.choice([-1, 1]))
        flt = SampleFilter(
            capture_ids=one,
            event=rng.choice(EVENTS),
            comm=rng.choice([None, *COMMS, "absent"]),
            start=rng.choice([start, None]),
            end=rng.choice([end, None]),
        )
        local, database = both_ways(session, flt)
        assert local == database, flt


def test_a_range_over_two_captures_sums_each(session: Session, capture_ids: list[int]) -> None:
    moments = instants(session, capture_ids)
    flt = SampleFilter(
        capture_ids=capture_ids, event="cpu-clock", start=moments[len(moments) // 4], end=moments[-5]
    )
    local, database = both_ways(session, flt)
    assert local == database
    assert sum(v for k, v in local.items() if k[2] == "samples") > 0


def test_filters_the_arrays_do_not_hold_go_to_the_database(session: Session, capture_ids: list[int]) -> None:
    captures = [c for c in (session.get(Capture, i) for i in capture_ids[:1]) if c is not None]
    plain = SampleFilter(capture_ids=capture_ids[:1], event="cpu-clock")
    assert from_sample_times(session, plain, captures) is not None
    for flt in (
        plain.model_copy(update={"tid": 100}),
        plain.model_copy(update={"pid": 100}),
        plain.model_copy(update={"within": WithinSecond(start_us=0, end_us=500_000)}),
        plain.model_copy(update={"source": "off-cpu", "event": None}),
    ):
        assert from_sample_times(session, flt, captures) is None, flt


def test_a_capture_past_the_limit_keeps_no_arrays(session: Session, capture_ids: list[int]) -> None:
    capture = session.get(Capture, capture_ids[0])
    assert capture is not None
    tree = callsite_trees.trees.kept(session, capture).tree
    assert sample_times.build(session, capture.id, tree, max_samples=capture.sample_count - 1) is None
    assert sample_times.build(session, capture.id, tree, max_samples=capture.sample_count) is not None
