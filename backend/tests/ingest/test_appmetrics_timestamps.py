"""How application-metrics timestamps are read: epoch units by magnitude, ISO 8601, and the notes."""

from __future__ import annotations

import pytest

from stallscope.ingest.appmetrics.timestamps import NAIVE_ISO, BadTime, EpochUnit, TimeReader, epoch_unit
from stallscope.ingest.model import ParseReport

T = 1_700_000_000_123_456_789  # 2023-11-14T22:13:20.123456789Z


@pytest.mark.parametrize(
    ("text", "unit", "expected"),
    [
        ("1700000000", EpochUnit.SECONDS, 1_700_000_000_000_000_000),
        ("1700000000.123456789", EpochUnit.SECONDS, T),
        ("1700000000123", EpochUnit.MILLISECONDS, 1_700_000_000_123_000_000),
        ("1700000000123.456789", EpochUnit.MILLISECONDS, T),
        ("1700000000123456", EpochUnit.MICROSECONDS, 1_700_000_000_123_456_000),
        ("1700000000123456.789", EpochUnit.MICROSECONDS, T),
        ("1700000000123456789", EpochUnit.NANOSECONDS, T),
        ("1.7e9", EpochUnit.SECONDS, 1_700_000_000_000_000_000),
    ],
)
def test_epoch_units_by_magnitude_exactly(text: str, unit: EpochUnit, expected: int) -> None:
    report = ParseReport()
    times = TimeReader(report)
    assert times.text(text, 2) == expected
    assert times.unit is unit
    assert [(w.line, w.message) for w in report.warnings] == [(0, f"timestamps: epoch {unit.label}")]


def test_json_floats_keep_their_written_fraction() -> None:
    times = TimeReader(ParseReport())
    assert times.number(1700000000.123, 1) == 1_700_000_000_123_000_000
    assert times.number(1700000001, 2) == 1_700_000_001_000_000_000


def test_a_file_keeps_the_unit_of_its_first_timestamp() -> None:
    report = ParseReport()
    times = TimeReader(report)
    times.text("1700000000123", 2)
    with pytest.raises(
        BadTime, match="looks like epoch seconds, but this file's timestamps are epoch milliseconds"
    ):
        times.text("1700000000", 3)
    with pytest.raises(BadTime, match="ISO 8601 time"):
        times.text("2026-11-22T00:00:00Z", 4)
    assert len(report.warnings) == 1  # the note, once


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2023-11-14T22:13:20.123456789Z", T),
        ("2023-11-14T22:13:20.123456789+00:00", T),
        ("2023-11-15T00:13:20.123456789+02:00", T),
        ("2023-11-14T20:13:20.123456789-0200", T),
        ("2023-11-14 22:13:20.123456789 UTC", T),
        ("2023-11-14T22:13:20,123456789Z", T),
        ("2023-11-14T22:13:20Z", 1_700_000_000_000_000_000),
    ],
)
def test_iso_8601_with_a_zone(text: str, expected: int) -> None:
    report = ParseReport()
    assert TimeReader(report).text(text, 5) == expected
    assert [w.message for w in report.warnings] == ["timestamps: ISO 8601"]


def test_iso_8601_without_a_zone_is_utc_with_one_warning() -> None:
    report = ParseReport()
    times = TimeReader(report)
    assert times.text("2023-11-14T22:13:20.123456789", 5) == T
    assert times.text("2023-11-14 22:13:21", 6) == 1_700_000_001_000_000_000
    assert [(w.line, w.message) for w in report.warnings] == [(0, "timestamps: ISO 8601"), (5, NAIVE_ISO)]
    with pytest.raises(BadTime, match="in a file whose timestamps are ISO 8601"):
        times.text("1700000000", 7)


@pytest.mark.parametrize("text", ["yesterday", "2023-13-01T00:00:00Z", "2023-11-14T25:00:00Z", "nan", ""])
def test_not_times(text: str) -> None:
    with pytest.raises(BadTime):
        TimeReader(ParseReport()).text(text, 1)


def test_magnitude_boundaries() -> None:
    assert epoch_unit(99_999_999_999) is EpochUnit.SECONDS
    assert epoch_unit(100_000_000_000) is EpochUnit.MILLISECONDS
    assert epoch_unit(1e17) is EpochUnit.NANOSECONDS
