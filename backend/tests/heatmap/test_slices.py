"""Which 10 ms slices lie wholly inside a range, and which row counts read them."""

from __future__ import annotations

import pytest

from stallscope.analysis.heatmap import SLICE_US, row_width_us, rows_fit_slices, whole_slices

pytestmark = pytest.mark.storage_neutral


def test_whole_slices_leave_less_than_a_slice_at_either_end() -> None:
    assert whole_slices(0, 30_000) == (0, 3)
    assert whole_slices(1, 29_999) == (1, 2)  # [10 ms, 20 ms) only
    assert whole_slices(5_000, 9_000) == (1, 0)  # inside one slice: none, all raw
    # Before 1970 (a clock origin shifted back) slices still floor, as the database's do.
    assert whole_slices(-25_000, -5_000) == (-2, -1)
    for low, high in ((123_456, 987_654), (-15_001, 40_000)):
        first, end = whole_slices(low, high)
        assert 0 <= first * SLICE_US - low < SLICE_US
        assert 0 <= high - end * SLICE_US < SLICE_US


def test_rows_that_divide_a_hundred_read_slices() -> None:
    assert [
        r for r in (1, 2, 4, 5, 8, 10, 20, 25, 40, 50, 100, 200, 1000) if rows_fit_slices(row_width_us(r))
    ] == [
        1,
        2,
        4,
        5,
        10,
        20,
        25,
        50,
        100,
    ]
