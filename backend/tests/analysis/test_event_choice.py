"""The one policy for the event a view shows when none is chosen (flame, diff, heatmap, commands)."""

from __future__ import annotations

from stallscope.analysis.event_choice import default_event, offered_events


def test_the_most_sampled_event_comes_first() -> None:
    assert offered_events([("cycles", 10), ("cpu-clock", 30), ("page-faults", 5)]) == [
        "cpu-clock",
        "cycles",
        "page-faults",
    ]
    assert default_event([("cycles", 10), ("cpu-clock", 30)]) == "cpu-clock"


def test_equal_counts_go_by_name_whatever_order_the_rows_came_in() -> None:
    assert default_event([("task-clock", 7), ("cpu-clock", 7)]) == "cpu-clock"
    assert default_event([("cpu-clock", 7), ("task-clock", 7)]) == "cpu-clock"


def test_proc_stack_dumps_come_after_every_cpu_event_however_many_they_are() -> None:
    counts = [("proc-stack:R", 59), ("proc-stack:S", 48), ("cpu-clock", 8), ("proc-stack:D", 13)]
    assert offered_events(counts) == ["cpu-clock", "proc-stack:R", "proc-stack:S", "proc-stack:D"]
    assert default_event(counts) == "cpu-clock"


def test_dumps_alone_are_shown_busiest_state_first() -> None:
    assert default_event([("proc-stack:S", 4), ("proc-stack:D", 9)]) == "proc-stack:D"


def test_an_event_of_several_captures_counts_all_of_its_samples() -> None:
    counts = [("cycles", 6), ("cpu-clock", 10), ("cycles", 6)]  # one pair per capture
    assert offered_events(counts) == ["cycles", "cpu-clock"]


def test_no_samples_no_default() -> None:
    assert offered_events([]) == []
    assert default_event([]) is None
