"""The timeline's per-bucket merging on tiny hand-written query rows with known answers: the top
processes and "other", events per bucket and the longest, metric min/avg/max, and sparse series."""

from __future__ import annotations

from stallscope.analysis.timeline_buckets import (
    CpuRow,
    CpuSeries,
    EventBucketRow,
    MetricBucketRow,
    MetricPointRow,
    by_series,
    event_series,
    is_sparse,
    merged_points,
    metric_series,
    top_and_rest,
)

# Four buckets. db is busiest, web next, then cron and ntp with one sample each.
CPU_ROWS = [
    CpuRow("web", 20, [1, 1, 2], [30, 20, 5]),  # bucket 1 comes back twice (two rollup rows): 50
    CpuRow("cron", 30, [3], [1]),
    CpuRow("db", 10, [0, 3], [200, 3]),
    CpuRow("ntp", 40, [2], [1]),
]


def test_the_busiest_processes_alone_and_the_rest_as_other() -> None:
    assert top_and_rest(CPU_ROWS, 2, 4) == [
        CpuSeries("db", 10, False, 203, [200, 0, 0, 3]),
        CpuSeries("web", 20, False, 55, [0, 50, 5, 0]),
        CpuSeries("other", None, True, 2, [0, 0, 1, 1]),
    ]


def test_no_other_when_every_process_fits_and_only_other_when_none_may() -> None:
    everyone = top_and_rest(CPU_ROWS, 8, 4)
    assert [(s.comm, s.total_samples) for s in everyone] == [
        ("db", 203),
        ("web", 55),
        ("cron", 1),
        ("ntp", 1),
    ]
    assert not any(s.other for s in everyone)
    (rest,) = top_and_rest(CPU_ROWS, 0, 4)
    assert rest == CpuSeries("other", None, True, 260, [200, 50, 6, 4])


def test_equal_processes_rank_by_name_then_id_whatever_order_they_come_in() -> None:
    rows = [
        CpuRow("b", 2, [0], [5]),
        CpuRow("a", 9, [0], [5]),
        CpuRow("a", 3, [0], [5]),
        CpuRow("a", None, [0], [5]),
    ]
    for order in (rows, rows[::-1]):
        assert [(s.comm, s.who) for s in top_and_rest(order, 3, 1)] == [
            ("a", None),
            ("a", 3),
            ("a", 9),
            ("other", None),
        ]


def test_indexes_outside_the_grid_are_dropped() -> None:
    (only,) = top_and_rest([CpuRow("db", 10, [-1, 0, 2, 7], [4, 1, 2, 8])], 1, 3)
    assert only.samples == [1, 0, 2]
    assert only.total_samples == 3


def test_events_add_up_per_bucket_and_keep_the_longest() -> None:
    rows = [
        EventBucketRow(0, 3, 40_000),
        EventBucketRow(2, 1, None),  # an event that never finished: counted, no duration
        EventBucketRow(0, 2, 90_000),
        EventBucketRow(2, 4, 15_000),
        EventBucketRow(5, 9, 1),  # past the grid
    ]
    series = event_series(rows, 3)
    assert series.events == [5, 0, 5]
    assert series.longest_ns == [90_000, None, 15_000]
    assert event_series([EventBucketRow(1, 2, None)], 2).longest_ns == [None, None]


# One metric in two captures (series 7 and 8), and an unrelated series 9.
METRIC_ROWS = [
    MetricBucketRow(7, 0, 2, 10.0, 4.0, 6.0),
    MetricBucketRow(8, 0, 2, 30.0, 14.0, 16.0),
    MetricBucketRow(7, 2, 1, 3.0, 3.0, 3.0),
    MetricBucketRow(9, 1, 5, 5.0, 1.0, 1.0),
    MetricBucketRow(7, 4, 1, 99.0, 99.0, 99.0),  # past the grid
]


def test_a_metric_from_several_series_has_min_average_and_max_per_bucket() -> None:
    series = metric_series(by_series(METRIC_ROWS), [7, 8], 3)
    assert series.points == [4, 0, 1]
    assert series.value_min == [4.0, None, 3.0]
    assert series.value_avg == [10.0, None, 3.0]
    assert series.value_max == [16.0, None, 3.0]
    assert metric_series(by_series(METRIC_ROWS), [42], 2).points == [0, 0]


def test_a_track_is_sparse_with_no_more_points_than_buckets() -> None:
    grouped = by_series(METRIC_ROWS)
    # Series 7 has 4 points, one of them past the grid: every point in the range counts.
    assert is_sparse(grouped, [7], 4)
    assert not is_sparse(grouped, [7], 3)
    assert not is_sparse(grouped, [7, 8], 5)
    assert is_sparse(grouped, [], 0)


def test_raw_points_of_several_series_merge_in_time_order() -> None:
    rows = [
        MetricPointRow(7, 300, 1.0),
        MetricPointRow(8, 100, 5.0),
        MetricPointRow(9, 200, 7.0),
        MetricPointRow(7, 100, 2.0),
        MetricPointRow(8, 400, 6.0),
    ]
    grouped = by_series(rows)
    assert [r.ts_us for r in grouped[7]] == [300, 100]  # as they came
    assert merged_points(grouped, [7, 8]) == [(100, 2.0), (100, 5.0), (300, 1.0), (400, 6.0)]
    assert merged_points(grouped, [1]) == []
