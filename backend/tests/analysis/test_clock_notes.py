"""What views and commands say about times that are not wall-clock, and how they decide it."""

from __future__ import annotations

import pytest

from stallscope.analysis.clock_notes import captures_subject, own_clock_note
from stallscope.ingest.clock import EPOCH_NS_THRESHOLD, WALL_CLOCK_MODES, is_wall_clock, on_capture_clock


def test_subjects_name_the_captures() -> None:
    assert captures_subject([3]) == "capture #3 is"
    assert captures_subject([3, 12]) == "captures #3, #12 are"


def test_a_note_says_which_clock_and_how_to_align() -> None:
    note = own_clock_note("this file's times are", relative=False, align="pass --offset")
    assert note.startswith("this file's times are on its own clock (perf and ftrace: seconds since boot)")
    assert "not wall-clock time" in note
    assert "row 0 is not the start of a UTC second" in note
    assert note.endswith("; pass --offset to align them")
    assert "mixed" not in note


def test_relative_times_and_mixed_columns_are_said_so() -> None:
    note = own_clock_note(captures_subject([4]), relative=True, align="set its start", mixed=True)
    assert note.startswith("capture #4 is on times relative to the start of the trace, not wall-clock time")
    assert note.endswith("; mixed with aligned captures, the columns span unrelated times")


@pytest.mark.parametrize("mode", sorted(WALL_CLOCK_MODES))
def test_aligned_modes_are_wall_clock(mode: str) -> None:
    assert is_wall_clock(mode)


@pytest.mark.parametrize("mode", ["unaligned", "none", "", None])
def test_unaligned_timeless_and_unknown_modes_are_not(mode: str | None) -> None:
    assert not is_wall_clock(mode)


def test_times_below_the_epoch_threshold_are_on_the_capture_clock() -> None:
    assert on_capture_clock(13_061_862_016_000)  # perf: 3.6 hours since boot
    assert on_capture_clock(EPOCH_NS_THRESHOLD - 1)
    assert not on_capture_clock(EPOCH_NS_THRESHOLD)
    assert not on_capture_clock(1_795_699_076_000_000_000)  # 2026, from `perf record -k CLOCK_REALTIME`
