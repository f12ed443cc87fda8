"""Bucket widths, grids, rollup levels, track ids and off-CPU areas: the pure parts, with known answers."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from stallscope.analysis import off_cpu_steps
from stallscope.analysis.timeline_grid import (
    epoch_us,
    floor_to,
    from_epoch_us,
    grid_for,
    nice_bucket_us,
    rollup_level,
)
from stallscope.timeline import track_ids

SECOND = 1_000_000
HOUR = 3600 * SECOND


@pytest.mark.parametrize(
    ("span_us", "width_px", "expected_us"),
    [
        (10 * SECOND, 1000, 10_000),  # exactly 10 ms per pixel
        (10 * SECOND, 3, 5 * SECOND),  # 3.33 s rounds up to 5 s
        (HOUR, 1500, 5 * SECOND),  # 2.4 s → 5 s
        (HOUR, 1800, 2 * SECOND),
        (4 * SECOND, 4, SECOND),
        (50, 1000, 1),  # tens of microseconds: never below 1 µs
        (0, 1000, 1),
        (7 * 24 * HOUR, 1000, 1000 * SECOND),  # a week: 604.8 s → 1000 s
    ],
)
def test_nice_bucket_width(span_us: int, width_px: int, expected_us: int) -> None:
    assert nice_bucket_us(span_us, width_px) == expected_us


def test_every_width_is_one_two_or_five_times_a_power_of_ten() -> None:
    for span in (1, 7, 999, 123_456, 98_765_432, 3 * HOUR + 17):
        for width in (1, 13, 640, 1920, 10_000):
            bucket = nice_bucket_us(span, width)
            mantissa = bucket
            while mantissa % 10 == 0:
                mantissa //= 10
            assert mantissa in (1, 2, 5), bucket
            assert -(-span // bucket) <= width or bucket == 1


def test_grid_rounds_outwards_to_whole_buckets() -> None:
    start = epoch_us(datetime(2026, 11, 21, 8, 0, 0, 300_000, tzinfo=UTC))
    end = epoch_us(datetime(2026, 11, 21, 8, 0, 9, 100_000, tzinfo=UTC))
    grid = grid_for(start, end, 4)  # 8.8 s over 4 px: 2.2 s → 5 s buckets
    assert grid.width_us == 5 * SECOND
    assert from_epoch_us(grid.start_us) == datetime(2026, 11, 21, 8, 0, 0, tzinfo=UTC)
    assert grid.count == 2
    assert grid.end == datetime(2026, 11, 21, 8, 0, 10, tzinfo=UTC)
    assert grid.start_us <= start < end <= grid.end_us


def test_floor_before_the_epoch_rounds_down() -> None:
    assert floor_to(-1, SECOND) == -SECOND
    assert floor_to(-SECOND, SECOND) == -SECOND
    assert floor_to(1_500_000, SECOND) == SECOND


@pytest.mark.parametrize(
    ("width_us", "levels", "expected"),
    [
        (SECOND, (100_000, SECOND), SECOND),
        (5 * SECOND, (100_000, SECOND), SECOND),
        (2 * SECOND, (100_000, SECOND, 10 * SECOND), SECOND),
        (50_000, (100_000, SECOND), None),
        (500_000, (100_000, SECOND), 100_000),
        (10 * SECOND, (), None),
    ],
)
def test_rollup_level_nests_in_the_bucket(
    width_us: int, levels: tuple[int, ...], expected: int | None
) -> None:
    assert rollup_level(width_us, levels) == expected


def test_track_ids_escape_separators_and_are_distinct() -> None:
    assert track_ids.cpu_id("db1", "cpu-clock") == "cpu:db1:cpu-clock"
    assert track_ids.cpu_id("a:b", "x,y") == "cpu:a%3Ab:x%2Cy"
    assert track_ids.events_id("h", "syscall") != track_ids.events_id("h", "syscall", "futex")
    assert track_ids.metric_id("h", "cpu.user", {}) == "m:h:cpu.user"
    with_labels = track_ids.metric_id("h", "cpu.user", {"cpu": "all"})
    assert "," not in with_labels
    assert with_labels != track_ids.metric_id("h", "cpu.user", {"cpu": "0"})
    assert track_ids.split_ids("a, b,,a,c") == ["a", "b", "c"]


def test_off_cpu_areas_and_bucket_time() -> None:
    # Two threads off-CPU from 10 µs, one from 30 µs, none from 40 µs.
    steps = [off_cpu_steps.Step(10, 2, 0.0), off_cpu_steps.Step(30, 1, 40.0), off_cpu_steps.Step(40, 0, 50.0)]
    areas = off_cpu_steps.areas_at(steps, [0, 10, 20, 30, 40, 50])
    assert areas == [0.0, 0.0, 20.0, 40.0, 50.0, 50.0]
    assert off_cpu_steps.bucket_ns(areas) == [0.0, 20_000.0, 20_000.0, 10_000.0, 0.0]
