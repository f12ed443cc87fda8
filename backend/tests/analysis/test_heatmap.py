"""The sub-second heatmap on hand-made times at known offsets, edges included."""

from __future__ import annotations

import pytest

from stallscope.analysis.heatmap import (
    CELL_BUDGET,
    Cell,
    CellBins,
    ColumnPlan,
    build_heatmap,
    column_limit,
    plan_columns,
    row_width_us,
)

S = 1_000_000_000  # ns per second
MS = 1_000_000  # ns per millisecond


def bins(rows: int, *times_ns: int, weight: int | None = 1) -> CellBins:
    b = CellBins(rows)
    for t in times_ns:
        b.add_ns(t, weight)
    return b


def test_row_width_splits_a_second_into_whole_microseconds() -> None:
    assert row_width_us(50) == 20_000
    assert row_width_us(1) == 1_000_000
    assert row_width_us(1000) == 1_000
    for bad in (0, -5, 1001):
        with pytest.raises(ValueError, match="between 1 and 1000"):
            row_width_us(bad)
    with pytest.raises(ValueError, match="whole microseconds"):
        row_width_us(30)


def test_times_land_in_their_second_and_row() -> None:
    b = bins(50, 100 * S + 5 * MS, 100 * S + 25 * MS, 101 * S + 999 * MS)
    assert b.cells() == [Cell(100, 0, 1, 1), Cell(100, 1, 1, 1), Cell(101, 49, 1, 1)]


def test_row_edges_belong_to_the_row_they_start() -> None:
    # exactly on a row edge (20 ms) is row 1; one nanosecond before it is still row 0.
    edge = bins(50, 7 * S + 20 * MS, 7 * S + 20 * MS - 1)
    assert edge.cells() == [Cell(7, 0, 1, 1), Cell(7, 1, 1, 1)]


def test_exactly_on_the_second_is_row_zero_of_that_second() -> None:
    on_second = bins(10, 8 * S, 8 * S - 1)
    assert on_second.cells() == [Cell(7, 9, 1, 1), Cell(8, 0, 1, 1)]


def test_nanoseconds_are_floored_to_microseconds_like_storage() -> None:
    # 19_999.9995 µs floors to 19_999 µs: row 0 at 20 ms rows, as the database would place it.
    assert bins(50, 19_999_999).cells() == [Cell(0, 0, 1, 1)]
    b = CellBins(50)
    b.add_us(3 * 1_000_000 + 40_000, 7)
    assert b.cells() == [Cell(3, 2, 1, 7)]


def test_unclosed_intervals_count_but_weigh_nothing() -> None:
    b = CellBins(10)
    b.add_ns(5 * S, 3 * MS)
    b.add_ns(5 * S + 1, None)
    assert b.cells() == [Cell(5, 0, 2, 3 * MS)]


def test_matrix_is_dense_columns_of_rows_with_count_or_summed_weight() -> None:
    cells = [Cell(100, 0, 3, 30), Cell(102, 4, 1, 500), Cell(100, 9, 2, 2)]
    counted = build_heatmap(cells, rows=10, value="count")
    assert (counted.first_second, counted.columns, counted.column_seconds) == (100, 3, 1)
    assert counted.values == [
        [3, 0, 0, 0, 0, 0, 0, 0, 0, 2],
        [0] * 10,  # a second with nothing in it is still a column
        [0, 0, 0, 0, 1, 0, 0, 0, 0, 0],
    ]
    assert (counted.max, counted.total, counted.total_count) == (3, 6, 6)
    assert counted.row_totals == [3, 0, 0, 0, 1, 0, 0, 0, 0, 2]
    summed = build_heatmap(cells, rows=10, value="duration")
    assert summed.values[2][4] == 500
    assert summed.counts[2][4] == 1
    assert (summed.max, summed.total, summed.total_count) == (500, 532, 6)


def test_hottest_cells_name_their_seconds_and_offsets() -> None:
    cells = [Cell(100, 0, 9, 0), Cell(101, 0, 9, 0), Cell(101, 3, 4, 0), Cell(102, 49, 1, 0)]
    hm = build_heatmap(cells, rows=50, top=3)
    first = hm.hot[0]
    assert (first.column, first.second, first.seconds, first.row) == (0, 100, 1, 0)
    assert (first.offset_start_us, first.offset_end_us, first.value, first.count) == (0, 20_000, 9, 9)
    # ties go to the earlier column; only `top` are listed
    assert [(h.second, h.row, h.value) for h in hm.hot] == [(100, 0, 9), (101, 0, 9), (101, 3, 4)]
    last = build_heatmap(cells, rows=50, top=10).hot[-1]
    assert (last.row, last.offset_start_us, last.offset_end_us) == (49, 980_000, 1_000_000)


def test_empty_cells_never_count_as_hot() -> None:
    hm = build_heatmap([Cell(5, 0, 2, 0)], rows=10, value="duration")
    assert hm.hot == []
    assert hm.max == 0
    assert hm.total_count == 2


def test_no_cells_is_an_empty_heatmap() -> None:
    hm = build_heatmap([], rows=20)
    assert (hm.columns, hm.values, hm.hot, hm.max, hm.total) == (0, [], [], 0, 0)
    assert hm.row_totals == [0] * 20


def test_long_spans_merge_into_k_second_columns_and_say_so() -> None:
    cells = [Cell(0, 0, 1, 0), Cell(1, 0, 1, 0), Cell(2, 1, 1, 0), Cell(999, 0, 5, 0)]
    hm = build_heatmap(cells, rows=10, max_columns=100)
    assert (hm.columns, hm.column_seconds, hm.merged) == (100, 10, True)
    assert hm.values[0][:2] == [2, 1]
    assert hm.values[99][0] == 5
    assert any("each column sums 10 s" in note for note in hm.notes)
    assert hm.hot[0].seconds == 10
    assert hm.hot[0].second == 990


def test_merging_cells_already_grouped_by_column_start_is_idempotent() -> None:
    plan = ColumnPlan(first_second=10, column_seconds=5, columns=2)
    hm = build_heatmap([Cell(10, 0, 2, 0), Cell(15, 0, 3, 0), Cell(17, 0, 1, 0)], rows=1, plan=plan)
    assert hm.values == [[2], [4]]


def test_cells_outside_the_plan_are_counted_and_left_out() -> None:
    plan = ColumnPlan(first_second=10, column_seconds=1, columns=2)
    hm = build_heatmap([Cell(9, 0, 4, 0), Cell(10, 0, 1, 0), Cell(12, 0, 2, 0)], rows=1, plan=plan)
    assert hm.values == [[1], [0]]
    assert hm.outside == 6
    assert any("6 records" in note for note in hm.notes)


def test_column_plans_cover_every_second_once() -> None:
    assert plan_columns(100, 109, 600) == ColumnPlan(100, 1, 10)
    plan = plan_columns(0, 1200, 600)
    assert (plan.column_seconds, plan.columns) == (3, 401)
    assert plan.end_second >= 1201
    assert plan.column_of(1200) == 400
    assert plan.column_of(1203) is None
    with pytest.raises(ValueError, match="before the first"):
        plan_columns(5, 4, 10)


def test_column_limit_keeps_the_matrix_within_the_cell_budget() -> None:
    assert column_limit(50, 600) == 600
    assert column_limit(1000, 600) == CELL_BUDGET // 1000
    assert column_limit(10, 0) == 1
