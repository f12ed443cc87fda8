"""The recorded application metrics, written the ways people write them, each read whole.

Every file here was refused or lost rows before the time column was found by name and content and
text columns became labels (see `data/tabular/README.md`).
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from stallscope.ingest.model import MetricPoint, ParseReport
from stallscope.ingest.registry import detect_importer
from tests.ingest.records import as_points, messages

DATA = Path(__file__).parent / "data" / "tabular"
APP = {"fsync_p99_us": "µs", "request_p99_ms": "ms", "lock_wait_p99_us": "µs", "requests": None}
WINDOWS = 30
FIRST_WINDOW_END = datetime(2026, 11, 25, 17, 11, 43, 951487, tzinfo=UTC)


def read(name: str) -> tuple[str, list[MetricPoint], ParseReport]:
    path = DATA / name
    importer = detect_importer(path.read_bytes()[: 64 * 1024])
    report = ParseReport()
    with path.open("rb") as stream:
        points = as_points(importer.parse(stream, report))
    return importer.name, points, report


def first_time(points: list[MetricPoint]) -> datetime:
    return datetime.fromtimestamp(min(p.time_ns for p in points) / 1e9, UTC)


@pytest.mark.parametrize(
    ("name", "note"),
    [
        ("app_epoch_us.csv", "timestamps: epoch microseconds (as the column's name says)"),
        ("app_ts_us.csv", "timestamps: epoch microseconds (as the column's name says)"),
        ("app_at_timestamp.csv", "timestamps: ISO 8601"),
        ("app_date.csv", "timestamps: ISO 8601"),
        ("app_when_s.csv", "timestamps: epoch seconds"),
        ("app_when_ms.csv", "timestamps: epoch milliseconds"),
        ("app_when_us.csv", "timestamps: epoch microseconds"),
        ("app_when_ns.csv", "timestamps: epoch nanoseconds"),
        ("app_wide_text.csv", "timestamps: epoch milliseconds (as the column's name says)"),
        ("app_metrics.jsonl", "timestamps: ISO 8601"),
        ("app_metrics_epoch_us.jsonl", "timestamps: epoch microseconds (as the column's name says)"),
    ],
)
def test_the_application_metrics_that_state_the_symptom_are_read_whole(name: str, note: str) -> None:
    importer, points, report = read(name)
    assert importer == ("metrics-jsonl" if name.endswith(".jsonl") else "metrics-csv")
    assert report.dropped_lines == 0
    assert {p.name: p.unit for p in points} == APP
    assert len(points) == WINDOWS * len(APP)
    assert (0, note) in messages(report)
    # Each file's first window, however its time was written (seconds keep three decimals).
    assert abs((first_time(points) - FIRST_WINDOW_END).total_seconds()) < 0.001


def test_a_time_column_found_by_content_is_noted() -> None:
    _, _, report = read("app_when_us.csv")
    assert messages(report)[0] == (0, "time column: 'when' (its values are times)")


def test_text_columns_of_a_wide_file_are_skipped_with_one_warning() -> None:
    _, points, report = read("app_wide_text.csv")
    assert {p.labels for p in points} == {()}
    skipped = [m for _, m in messages(report) if "skipped" in m]
    assert skipped == [
        "columns 'host', 'phase' hold text, not numbers, and each row has its own time: "
        "skipped (neither a series nor a label)"
    ]


def test_a_row_per_cpu_keeps_cpu_all_as_a_label() -> None:
    _, points, report = read("cpu_long_text.csv")
    assert report.dropped_lines == 0
    assert {dict(p.labels)["cpu"] for p in points} == {"all", "0", "1"}
    assert {p.name: p.unit for p in points} == {"user_pct": "%", "system_pct": "%", "iowait_pct": "%"}
    assert len(points) == WINDOWS * 3 * 3


def test_a_row_per_event_and_state_keeps_both_as_labels() -> None:
    _, points, report = read("events_long_text.csv")
    assert report.dropped_lines == 0
    assert {p.labels for p in points} == {
        (("event", event), ("state", state)) for event in ("write", "fsync") for state in ("fast", "slow")
    }
    assert len(points) == WINDOWS * 4


def test_sadf_csv_with_its_header_in_a_comment() -> None:
    _, points, report = read("sadf_d_u_P_ALL.csv")
    assert report.dropped_lines == 0
    user = [p for p in points if p.name == "%user"]
    assert {dict(p.labels)["CPU"] for p in user} == {"-1", "0", "1"}
    assert {p.unit for p in user} == {"%"}
    assert first_time(points) == datetime(2026, 11, 25, 17, 11, 50, tzinfo=UTC)
    _, memory, report = read("sadf_d_r.csv")
    assert "kbdirty" in {p.name for p in memory}
    assert any("'hostname' holds text" in m for _, m in messages(report))
