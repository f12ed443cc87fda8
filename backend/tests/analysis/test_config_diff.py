"""The config diff on tiny hand-written snapshot documents: what counts as changed, added, removed."""

from __future__ import annotations

from typing import Any

from stallscope.analysis.config_diff import diff_snapshots
from stallscope.analysis.config_keys import normalise


def snap(host: str = "h", **sections: Any) -> dict[str, Any]:
    return {"stallscope": "snapshot", "version": 1, "host": host, "taken_at_ns": None, "sections": sections}


def keys(rows: list[Any]) -> list[tuple[str, str]]:
    return [(row.section, row.key) for row in rows]


def test_bracketed_choices_and_whitespace_compare_as_the_setting() -> None:
    assert normalise("always [madvise] never") == "madvise"
    assert normalise("none [mq-deadline] kyber bfq") == "mq-deadline"
    assert normalise("  a \t b ") == "a b"
    assert normalise(True) == "1"


def test_changed_come_first_in_the_order_of_the_stalls_then_added_and_removed() -> None:
    a = snap(
        vm={"dirty_ratio": "20", "swappiness": "60"},
        transparent_hugepage={"defrag": "always defer [madvise] never"},
        tracing={"set_event": ["sched:sched_switch"]},
    )
    b = snap(
        vm={"dirty_ratio": "80", "swappiness": "60"},
        transparent_hugepage={"defrag": "[always] defer madvise never"},
        tracing={"set_event": ["block:block_rq_issue"]},
    )
    diff = diff_snapshots(a, b)
    assert keys(diff.changed) == [("transparent_hugepage", "defrag"), ("vm", "dirty_ratio")]
    assert (diff.changed[0].a, diff.changed[0].b) == ("madvise", "always")
    assert diff.changed[0].hint is not None
    assert "compaction" in diff.changed[0].hint
    assert keys(diff.added) == [("tracing", "set_event · block:block_rq_issue")]
    assert keys(diff.removed) == [("tracing", "set_event · sched:sched_switch")]
    assert keys(diff.unchanged) == [("vm", "swappiness")]


def test_a_file_one_side_never_read_is_not_a_difference() -> None:
    a = snap(vm={"dirty_ratio": "20", "dirty_bytes": "0"})
    b = snap(vm={"dirty_ratio": "20"}, mounts={"/": {"type": "ext4", "options": "rw"}})
    diff = diff_snapshots(a, b)
    assert not diff.differs
    assert [(o.section, o.keys, o.whole_section) for o in diff.only_in_a] == [("vm", ["dirty_bytes"], False)]
    assert [(o.section, o.whole_section) for o in diff.only_in_b] == [("mounts", True)]


def test_processes_are_matched_by_name_and_a_lost_variable_is_removed() -> None:
    a = snap(
        processes={"100": {"comm": "appserver", "environment": {"LD_BIND_NOW": "1", "MALLOC_ARENA_MAX": "2"}}}
    )
    b = snap(processes={"9000": {"comm": "appserver", "environment": {"MALLOC_ARENA_MAX": "2"}}})
    diff = diff_snapshots(a, b)
    assert keys(diff.removed) == [("processes", "appserver · environment · LD_BIND_NOW")]
    assert diff.removed[0].hint is not None
    assert "PLT" in diff.removed[0].hint
    assert keys(diff.unchanged) == [("processes", "appserver · environment · MALLOC_ARENA_MAX")]


def test_governors_read_as_one_word_when_every_cpu_agrees() -> None:
    a = snap(cpu={"governors": {"0": "performance", "1": "performance"}})
    b = snap(cpu={"governors": {"0": "performance", "1": "powersave", "2": "powersave"}})
    (change,) = diff_snapshots(a, b).changed
    assert (change.a, change.b) == ("performance", "0: performance; 1-2: powersave")


def test_bpf_programs_compare_by_type_and_name_not_id() -> None:
    a = snap(bpf={"programs": [{"id": 3, "type": "kprobe", "name": "x"}]})
    b = snap(bpf={"programs": [{"id": 77, "type": "kprobe", "name": "x"}, {"id": 78, "type": "tracepoint"}]})
    diff = diff_snapshots(a, b)
    assert keys(diff.added) == [("bpf", "program · tracepoint (no name)")]
    assert keys(diff.unchanged) == [("bpf", "program · kprobe x")]


def test_what_changes_by_itself_or_names_the_host_is_set_aside() -> None:
    a = snap("a", system={"loadavg": "0.1 0.2 0.3"}, sysctl={"kernel.hostname": "a", "fs.file-nr": "1 0 9"})
    b = snap("b", system={"loadavg": "9 9 9"}, sysctl={"kernel.hostname": "b", "fs.file-nr": "5 0 9"})
    diff = diff_snapshots(a, b)
    assert not diff.differs
    assert diff.not_compared_a == {"changes by itself": 2, "names the host": 1}


def test_an_unreadable_value_is_compared_with_its_reason() -> None:
    a = snap(tracing={"current_tracer": None, "errors": {"current_tracer": "Permission denied"}})
    b = snap(tracing={"current_tracer": "function_graph"})
    (change,) = diff_snapshots(a, b).changed
    assert change.a is None
    assert change.a_note == "Permission denied"
    assert change.b == "function_graph"


def test_probes_one_side_could_not_list_are_not_called_added() -> None:
    a = snap(tracing={"kprobe_events": None, "errors": {"kprobe_events": "No such file or directory"}})
    b = snap(tracing={"kprobe_events": ["p:kprobes/x vfs_fsync_range"]})
    diff = diff_snapshots(a, b)
    assert not diff.differs
    assert [(o.section, o.keys) for o in diff.only_in_b] == [("tracing", ["kprobe_events · p:kprobes/x"])]


def test_a_cpu_number_too_long_for_an_int_does_not_crash() -> None:
    """Documents are untrusted: a key of 5,000 digits is not converted."""
    a = snap(cpu={"governors": {"9" * 5000: "performance", "0": "powersave"}}, processes={"9" * 5000: {}})
    assert diff_snapshots(a, a).changed == []
