"""Off-CPU time per bucket from step functions, on hand-written steps with known areas."""

from __future__ import annotations

from stallscope.analysis.off_cpu_steps import Step, StoredSpan, add_into, areas_at, bucket_ns, stored_areas

EDGES = [0, 10, 20, 30, 40, 50]


def test_area_is_zero_before_the_first_step_and_grows_with_the_threads_off_cpu() -> None:
    # One thread off-CPU from 15 µs, three from 25 µs.
    steps = [Step(15, 1, 0.0), Step(25, 3, 10.0)]
    assert areas_at(steps, EDGES) == [0.0, 0.0, 5.0, 25.0, 55.0, 85.0]
    assert areas_at([], EDGES) == [0.0] * 6


def test_bucket_time_is_the_difference_of_areas_in_nanoseconds_never_negative() -> None:
    assert bucket_ns([0.0, 5.0, 25.0]) == [5_000.0, 20_000.0]
    assert bucket_ns([5.0, 4.999]) == [0.0]  # rounding of stored areas never draws negative time
    assert bucket_ns([1.0]) == []


def test_stored_areas_sum_captures_and_extrapolate_past_the_last_step() -> None:
    spans = [
        # Capture 1, state D: steps from 10 to 30 µs; 2 threads still off-CPU after the last one.
        StoredSpan(1, "D", 10, 30, 2, 40.0),
        # Capture 2, state D: steps from 20 to 20 µs, nobody off-CPU after it.
        StoredSpan(2, "D", 20, 20, 0, 7.0),
        # Capture 1, state S: from 40 µs on.
        StoredSpan(1, "S", 40, 45, 1, 3.0),
    ]
    looked_up = {
        (1, "D", 10): 0.0,
        (1, "D", 20): 10.0,
        (1, "D", 30): 40.0,
        (2, "D", 20): 7.0,
        (1, "S", 40): 0.0,
    }
    areas = stored_areas(spans, looked_up, EDGES)
    # D at 40: 40 + 2 x 10 from capture 1, 7 from capture 2; at 50: 60 + 7 + 20.
    assert areas["D"] == [0.0, 0.0, 17.0, 47.0, 67.0, 87.0]
    # S at 50: past its last step (45 µs), 3 + 1 x 5.
    assert areas["S"] == [0.0, 0.0, 0.0, 0.0, 0.0, 8.0]
    assert stored_areas([], {}, EDGES) == {}


def test_an_edge_inside_a_span_that_was_not_looked_up_adds_nothing() -> None:
    assert stored_areas([StoredSpan(1, "D", 0, 50, 0, 9.0)], {}, [0, 50]) == {"D": [0.0, 0.0]}


def test_add_into_adds_element_by_element_up_to_the_target_length() -> None:
    target = [1.0, 1.0]
    add_into(target, [0.5, 2.0, 99.0])
    assert target == [1.5, 3.0]
