"""Finding the time column of a table: by name, by content, the first column, or the one given."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from stallscope.ingest.appmetrics.time_columns import (
    HOW_CONTENT,
    HOW_FIRST,
    HOW_GIVEN,
    HOW_NAMED,
    find_time_column,
    is_time_name,
    named_unit,
)
from stallscope.ingest.appmetrics.time_option import with_time_column
from stallscope.ingest.appmetrics.timestamps import EpochUnit
from stallscope.ingest.model import ParseError, ParseReport
from stallscope.ingest.registry import importer_by_name
from tests.ingest.records import as_points, messages

DATA = Path(__file__).parent / "data"


def found(header: str, *rows: str, given: str | None = None) -> tuple[str, str, EpochUnit | None]:
    names = header.split(",")
    cells = [row.split(",") for row in rows]
    column = find_time_column(names, [[row[i] for row in cells] for i in range(len(names))], given, 1)
    return column.name, column.how, column.unit


@pytest.mark.parametrize(
    "name",
    [
        "time",
        "TS",
        "Timestamp",
        "date",
        "datetime",
        "@timestamp",
        "epoch",
        "epoch_us",
        "epochMillis",
        "ts_us",
    ],
)
def test_time_names(name: str) -> None:
    assert is_time_name(name)
    assert found(f"value_ms,{name},n", f"3,{1_700_000_000},1")[:2] == (name, HOW_NAMED)


@pytest.mark.parametrize("name", ["fsync_p99_us", "requests", "elapsed", "status", "timeout_ms"])
def test_names_that_are_not_time_names(name: str) -> None:
    assert not is_time_name(name)


@pytest.mark.parametrize(
    ("name", "unit"),
    [
        ("ts_us", EpochUnit.MICROSECONDS),
        ("epoch-ms", EpochUnit.MILLISECONDS),
        ("time_ns", EpochUnit.NANOSECONDS),
        ("elapsed (s)", EpochUnit.SECONDS),
        ("t[usec]", EpochUnit.MICROSECONDS),
        ("ts", None),
        ("requests", None),
        ("epochms", None),
    ],
)
def test_the_unit_a_name_states(name: str, unit: EpochUnit | None) -> None:
    assert named_unit(name) is unit


def test_the_most_telling_name_wins_and_a_time_name_must_hold_times() -> None:
    assert found("ts,timestamp,x", "1700000000,1700000001,1")[0] == "timestamp"
    # `time` is a time of day here: the date beside it is not, either; the ISO column is found by content.
    assert found("date,time,at,x", "11/25/2026,17:00:01,2026-11-25T17:00:01Z,1") == ("at", HOW_CONTENT, None)


def test_a_unit_suffix_counts_only_when_the_values_are_epoch_times_in_that_unit() -> None:
    # fsync_p99_us ends in _us and holds durations: not the time; recorded_us holds epoch µs.
    header = "fsync_p99_us,recorded_us,requests"
    assert found(header, "436.1,1795626695834791,328", "312.1,1795626695935058,334") == (
        "recorded_us",
        HOW_NAMED,
        EpochUnit.MICROSECONDS,
    )


@pytest.mark.parametrize(
    "stamp",
    ["1795626695.835", "1795626695834", "1795626695834791", "1795626695834791233", "2026-11-25T17:11:35.8Z"],
)
def test_content_finds_epoch_numbers_of_any_unit_and_iso_times(stamp: str) -> None:
    assert found("p99_ms,when,requests", f"3.5,{stamp},12") == ("when", HOW_CONTENT, None)


def test_the_first_column_is_the_last_resort() -> None:
    assert found("t,lat_ms", "0.5,3", "1.0,4") == ("t", HOW_FIRST, None)


def test_the_given_column_wins_over_every_rule_and_its_case_is_forgiven() -> None:
    assert found("ts,occurred_at,x", "1700000000,1700000005,1", given="occurred_at")[:2] == (
        "occurred_at",
        HOW_GIVEN,
    )
    assert found("ts,Occurred_At_ms,x", "1,2,3", given="occurred_at_ms") == (
        "Occurred_At_ms",
        HOW_GIVEN,
        EpochUnit.MILLISECONDS,
    )


def test_a_given_column_that_is_not_there_names_the_columns() -> None:
    with pytest.raises(ParseError) as raised:
        found("ts,x", "1700000000,1", given="when")
    assert raised.value.line == 1
    assert "there is no column 'when' to read times from; the columns are 'ts', 'x'" in str(raised.value)


def test_no_column_that_fits_names_the_columns_and_the_override() -> None:
    with pytest.raises(ParseError) as raised:
        found("host,lat_ms", "db1,3", "db2,4")
    message = str(raised.value)
    assert "found no time column" in message
    assert "the columns are 'host', 'lat_ms'" in message
    assert "time_column" in message


def test_a_few_bad_times_do_not_move_the_time_to_another_column() -> None:
    assert found("ts,x", "1700000000,1", "yesterday,2", "1700000002,3")[0] == "ts"


def test_the_upload_option_reaches_the_table_importers_and_is_noted_as_ignored_by_others() -> None:
    text = b"ingested_at,occurred_at,lat_ms\n2026-11-25T17:00:09Z,2026-11-25T17:00:01Z,3\n"
    csv = with_time_column(importer_by_name("metrics-csv"), "occurred_at")
    points = as_points(csv.parse(io.BytesIO(text), ParseReport()))
    assert [p.time_ns for p in points] == [1_795_626_001_000_000_000]
    sar = with_time_column(importer_by_name("sysstat"), "occurred_at")
    report = ParseReport()
    with (DATA / "sysstat" / "sar_A_fc.txt").open("rb") as stream:
        assert list(sar.parse(stream, report))
    assert messages(report)[0] == (
        0,
        "time column 'occurred_at' given, but sysstat files have no columns: ignored",
    )
    assert with_time_column(csv, None) is csv
