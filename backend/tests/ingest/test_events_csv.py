"""Timed events in CSV: a row per event (time, name, duration, counters) becomes a `TimedEvent`."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path

import pytest

from stallscope.ingest.appmetrics.csv_events import IMPORTER, parse_events_csv
from stallscope.ingest.appmetrics.csv_metrics import IMPORTER as METRICS_CSV
from stallscope.ingest.model import CaptureClock, EventKind, ParseError, ParseReport, TimedEvent
from stallscope.ingest.registry import detect_importer
from tests.ingest.records import messages

DATA = Path(__file__).parent / "data" / "tabular"
US = 1_000


def parse(text: str, time_column: str | None = None) -> tuple[list[TimedEvent], ParseReport]:
    report = ParseReport()
    return list(parse_events_csv(io.BytesIO(text.encode()), report, time_column)), report


def test_importer() -> None:
    assert IMPORTER.name == "events-csv"
    assert IMPORTER.clock is CaptureClock.REALTIME


@pytest.mark.parametrize(
    "header",
    [
        "ts_us,event,duration_us,bytes",
        "time;name;latency (ms);rows",
        "@timestamp\top\ttook_s",
        "# comment\nTimestamp,Operation,Elapsed,pid",
    ],
)
def test_the_events_shape_is_detected_before_metrics(header: str) -> None:
    head = f"{header}\n".encode()
    assert IMPORTER.detect(head)
    assert detect_importer(head + b"1700000000,fsync,3,4\n") is IMPORTER


@pytest.mark.parametrize(
    "header",
    [
        "ts,name,value,duration_ms",
        "ts,event,state,count",
        "ts,fsync_p99_us,latency_p99_ms",
        "ts,name,latency_p99_ms",
    ],
)
def test_metrics_tables_are_not_events(header: str) -> None:
    assert not IMPORTER.detect(f"{header}\n".encode())
    assert METRICS_CSV.detect(f"{header}\n1700000000,a,1,2\n".encode())


def test_a_row_becomes_an_event_with_its_fields_and_counters() -> None:
    events, report = parse(
        "ts_us,event,duration_us,bytes,dirty_kB,pid,tid,comm,status,cpu\n"
        "1795626695731273,fsync,453.175,4096,6252,14659,14700,db-writer,ok,1\n"
        "1795626695731350,write,74,4096,,14659,14701,db-writer,,0\n"
    )
    assert events == [
        TimedEvent(
            2,
            EventKind.FUNCTION,
            "fsync",
            1_795_626_695_731_273 * US,
            453_175,
            14659,
            14700,
            "db-writer",
            1,
            result="ok",
            attrs={"bytes": 4096, "dirty_kB": 6252},
        ),
        TimedEvent(
            3,
            EventKind.FUNCTION,
            "write",
            1_795_626_695_731_350 * US,
            74_000,
            14659,
            14701,
            "db-writer",
            0,
            attrs={"bytes": 4096},
        ),
    ]
    assert messages(report) == [(0, "timestamps: epoch microseconds (as the column's name says)")]


def test_a_duration_without_a_unit_is_milliseconds_and_the_report_says_how_to_name_it() -> None:
    events, report = parse("time,event,duration\n2026-11-25T17:00:00Z,checkpoint,1.5\n")
    assert [e.duration_ns for e in events] == [1_500_000]
    assert (
        1,
        "the duration column 'duration' names no unit: read as milliseconds (name it duration_us, _ms or _s)",
    ) in (messages(report))


def test_counters_keep_their_type_and_text_stays_text() -> None:
    (event,), _ = parse("ts,op,dur_ns,ratio,path,count\n1700000000,read,10,0.5,/var/lib/db,7\n")
    assert event.duration_ns == 10
    assert event.attrs == {"ratio": 0.5, "path": "/var/lib/db", "count": 7}


def test_rows_that_do_not_read_are_dropped_with_their_line_and_reason() -> None:
    events, report = parse(
        "ts,event,duration_ms,pid\n"
        "1700000000,fsync,1,10\n"
        "1700000001,,1,10\n"
        "1700000002,fsync,-1,10\n"
        "1700000003,fsync,slow,10\n"
        "yesterday,fsync,1,10\n"
        "1700000005,fsync,1,ten\n"
        "1700000006,fsync,1\n"
        "1700000007,fsync,,10\n"
    )
    assert [(e.line, e.duration_ns) for e in events] == [(2, 1_000_000), (9, None)]
    assert report.dropped_lines == 6
    assert dict(messages(report)[1:]) == {
        3: "the event name is empty; dropped this line",
        4: "duration '-1' is negative; dropped this line",
        5: "duration 'slow' is not a number; dropped this line",
        6: "'yesterday' is neither an epoch number nor an ISO 8601 time; dropped this line",
        7: "pid 'ten' is not a whole number; dropped this line",
        8: "expected 4 fields as in the header, found 3; dropped this line",
    }


def test_durations_and_ids_past_their_ranges_are_dropped() -> None:
    events, report = parse(
        "ts,event,duration_s,pid,cpu\n1700000000,a,10000000000,1,0\n1700000001,a,1,4294967296,0\n"
        "1700000002,a,1,1,70000\n1700000003,a,1,1,1\n"
    )
    assert [e.line for e in events] == [5]
    assert [m for _, m in messages(report)[1:]] == [
        "duration '10000000000' is longer than the 292 years a duration can be; dropped this line",
        "pid '4294967296' is out of range; dropped this line",
        "cpu '70000' is out of range; dropped this line",
    ]


@pytest.mark.parametrize("stamp", ["-9223372036854775809", "100000000000000001"])
def test_a_time_past_the_stores_range_is_dropped_on_the_fast_way_too(stamp: str) -> None:
    # In a run of plain rows a named unit (µs) once let any magnitude through, scaled past the range.
    rows = [f"{1_795_626_703_842_595 + i},fsync,3,4096\n" for i in range(40)]
    rows[20] = f"{stamp},fsync,3,4096\n"
    events, report = parse("ts_us,event,duration_us,bytes\n" + "".join(rows))
    assert len(events) == 39
    assert 22 not in {e.line for e in events}
    assert all(e.start_ns is not None and e.start_ns > 0 for e in events)
    assert report.dropped_lines == 1
    assert messages(report)[-1][0] == 22


@pytest.mark.parametrize(
    ("header", "row"),
    [
        ("ts_ms,event,duration_us,bytes,comm,result", "{t},fsync,{d},{n},db,{ok}"),
        ("ts_ms,tid,event,cpu,duration_us,pid,bytes", "{t},{tid},fsync,{cpu},{d},7,{n}"),
        ("ts_ms,event,duration_us,pid,tid,comm,cpu,result", "{t},fsync,{d},7,{tid},db,{cpu},{ok}"),
    ],
)
def test_the_fast_and_the_general_way_read_the_same_events(header: str, row: str) -> None:
    # A quoted line sends the rest of the file the general way; plain runs go the fast way.
    rows = "".join(
        row.format(t=1_700_000_000_000 + i, d=i % 7, n=i * 3, ok="" if i % 5 else "ok", tid=i % 3, cpu=i % 2)
        + "\n"
        for i in range(300)
    )
    quoted = row.format(t=1699999999999, d=1, n=1, ok="ok", tid=1, cpu=0).replace("fsync", '"fsync"')
    fast, fast_report = parse(f"{header}\n{rows}")
    general, general_report = parse(f"{header}\n{quoted}\n{rows}")
    assert len(fast) == 300
    assert general[1:] == [
        TimedEvent(
            e.line + 1,
            e.kind,
            e.name,
            e.start_ns,
            e.duration_ns,
            e.pid,
            e.tid,
            e.comm,
            e.cpu,
            result=e.result,
            attrs=e.attrs,
        )
        for e in fast
    ]
    assert messages(fast_report) == messages(general_report)


@pytest.mark.parametrize(
    ("unit", "duration"),
    [
        ("us", lambda i: f"{i * 7.123:.3f}"),  # printf's %.3f: read as whole nanoseconds
        ("ms", lambda i: f"{i * 0.731:.3f}"),
        ("ms", lambda i: str(round(i * 0.731, 3))),  # Python's repr: as many decimals as it needs
        ("s", lambda i: f"{1_300_000 + i / 7:.9f}"),  # past what a float holds to the nanosecond
        ("us", lambda i: f"{i * 1e3:.2e}"),
    ],
)
def test_fractional_durations_read_the_same_either_way(unit: str, duration: Callable[[int], str]) -> None:
    rows = "".join(f"{1_700_000_000_000 + i},fsync,{duration(i)}\n" for i in range(200))
    header = f"ts_ms,event,duration_{unit}\n"
    fast, _ = parse(header + rows)
    general, _ = parse(header + '1699999999999,"fsync",1\n' + rows)
    assert len(fast) == 200
    assert [e.duration_ns for e in fast] == [e.duration_ns for e in general[1:]]


@pytest.mark.parametrize(
    "header",
    ["ts_ms,event,duration_us,bytes,dirty_kB,queue", "ts_ms,event,duration_us,bytes,bytes,queue"],
)
def test_counters_some_rows_lack_read_the_same_either_way(header: str) -> None:
    # Two columns with empty cells, and a counter named twice (the last value a row has wins).
    rows = "".join(
        f"{1_700_000_000_000 + i},fsync,{i % 7},{'' if i % 3 else i},{'' if i % 2 else 8 * i},q{i % 4}\n"
        for i in range(120)
    )
    fast, _ = parse(f"{header}\n{rows}")
    general, _ = parse(f'{header}\n1699999999999,"fsync",1,1,1,q\n{rows}')
    assert [e.attrs for e in fast] == [e.attrs for e in general[1:]]
    assert fast[1].attrs == {"queue": "q1"}
    assert fast[3].attrs == {"bytes": 3, "queue": "q3"}
    if "dirty_kB" in header:
        assert fast[6].attrs == {"bytes": 6, "dirty_kB": 48, "queue": "q2"}
    else:
        assert fast[6].attrs == {"bytes": 48, "queue": "q2"}
    assert len({id(e.attrs) for e in fast}) == len(fast)


def test_each_event_has_its_own_attrs() -> None:
    events, _ = parse("ts,event,duration_us\n1700000000,a,1\n1700000001,b,2\n")
    assert events[0].attrs == {}
    assert events[0].attrs is not events[1].attrs


def test_the_given_time_column_wins() -> None:
    text = "ingested_at,occurred_at,event,duration_ms\n2026-11-25T17:00:09Z,2026-11-25T17:00:01Z,gc,12\n"
    assert [e.start_ns for e in parse(text)[0]] == [1_795_626_009_000_000_000]
    assert [e.start_ns for e in parse(text, "occurred_at")[0]] == [1_795_626_001_000_000_000]
    with pytest.raises(ParseError, match="there is no column 'when'"):
        parse(text, "when")


def test_the_recorded_fsync_events() -> None:
    report = ParseReport()
    with (DATA / "fsync_events.csv").open("rb") as stream:
        events = list(IMPORTER.parse(stream, report))
    assert len(events) == 1200
    assert report.dropped_lines == 0
    assert {e.name for e in events} == {"write", "fsync"}
    fsyncs = [e for e in events if e.name == "fsync"]
    assert all(e.duration_ns is not None and e.duration_ns > 0 for e in fsyncs)
    assert all(isinstance(e.attrs["dirty_kB"], int) for e in fsyncs)
    assert all("dirty_kB" not in e.attrs for e in events if e.name == "write")
    assert events[0].start_ns == 1_795_626_703_842_595 * US
