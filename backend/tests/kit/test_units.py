"""The units policy: what a view's weights are in, and how a duration or a weight is written."""

from __future__ import annotations

import pytest

from stallscope.kit.units import duration_text, is_time_unit, view_unit, weight_text, weight_unit


def test_an_events_unit_follows_its_period() -> None:
    assert weight_unit("cpu-clock", has_period=True) == "ns"
    assert weight_unit("task-clock", has_period=True) == "ns"
    assert weight_unit("cycles", has_period=True) == "events"
    assert weight_unit("cpu-clock", has_period=False) == "samples"


def test_off_cpu_views_are_in_microseconds_and_the_others_in_their_events_unit() -> None:
    assert view_unit("off-cpu", "samples") == "us"
    assert view_unit("samples", "ns") == "ns"
    assert view_unit("proc-stack", "samples") == "samples"


def test_only_ns_and_us_are_time() -> None:
    assert is_time_unit("ns")
    assert is_time_unit("us")
    assert not is_time_unit("samples")
    assert not is_time_unit("events")


@pytest.mark.parametrize(
    ("ns", "text"),
    [
        (0, "0 ns"),
        (12, "12 ns"),
        (999, "999 ns"),
        (1_000, "1.00 µs"),
        (1_500, "1.50 µs"),
        (99_949, "99.9 µs"),
        (999_499, "999 µs"),
        (999_500, "1.00 ms"),  # rounded before the unit is chosen: never "1,000 µs"
        (45_600_000, "45.6 ms"),
        (1_234_000_000, "1.23 s"),
        (12_500_000_000, "12.5 s"),
        (123_400_000_000, "123 s"),
        (1_234_500_000_000, "1,234 s"),
        (-4_000_000, "-4.00 ms"),
        (4_000_000.4, "4.00 ms"),
    ],
)
def test_durations_read_with_three_digits_in_the_largest_unit(ns: float, text: str) -> None:
    assert duration_text(ns) == text


def test_weights_are_durations_when_their_unit_is_time_and_counts_otherwise() -> None:
    assert weight_text(8_000_000, "ns") == "8.00 ms"
    assert weight_text(10_000, "us") == "10.0 ms"
    assert weight_text(1_204, "samples") == "1,204 samples"
    assert weight_text(2.5, "events") == "2.5 events"
