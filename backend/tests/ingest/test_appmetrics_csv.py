"""Application metrics in CSV: long and wide form, timestamps, labels and broken rows."""

from __future__ import annotations

import io

import pytest

from stallscope.ingest.appmetrics.csv_metrics import IMPORTER, parse_csv
from stallscope.ingest.appmetrics.timestamps import NAIVE_ISO
from stallscope.ingest.model import CaptureClock, MetricPoint, ParseError, ParseReport
from tests.ingest.records import as_points, messages, parse_points

S = 1_000_000_000


def parse(text: str) -> tuple[list[MetricPoint], ParseReport]:
    return parse_points(IMPORTER, text)


def test_importer() -> None:
    assert IMPORTER.name == "metrics-csv"
    assert IMPORTER.clock is CaptureClock.REALTIME


def test_long_form_with_label_columns() -> None:
    points, report = parse(
        "ts,name,value,host,region\n"
        "1700000000123,latency_ms,3.5,db1,eu\n"
        "1700000000124,latency_ms,4,db2,\n"
        "1700000000125,naks,2,db1,eu\n"
    )
    assert points == [
        MetricPoint(
            2, "latency_ms", 1_700_000_000_123_000_000, 3.5, (("host", "db1"), ("region", "eu")), "ms"
        ),
        MetricPoint(3, "latency_ms", 1_700_000_000_124_000_000, 4.0, (("host", "db2"),), "ms"),
        MetricPoint(4, "naks", 1_700_000_000_125_000_000, 2.0, (("host", "db1"), ("region", "eu")), None),
    ]
    assert messages(report) == [(0, "timestamps: epoch milliseconds")]


def test_long_form_unit_column_and_header_case() -> None:
    points, _ = parse("Timestamp,Name,Value,Unit\n1700000000,queue_depth,7,requests\n1700000001,lat_ms,1,\n")
    assert [(p.name, p.unit) for p in points] == [("queue_depth", "requests"), ("lat_ms", "ms")]


def test_wide_form_one_column_per_series() -> None:
    points, report = parse(
        'time,latency_ms,naks,"rtt_us{host=""db1"",dc=""x""}"\n1700000000,3.1,2,120\n1700000001,,3,\n'
    )
    assert points == [
        MetricPoint(2, "latency_ms", 1_700_000_000 * S, 3.1, (), "ms"),
        MetricPoint(2, "naks", 1_700_000_000 * S, 2.0, (), None),
        MetricPoint(2, "rtt_us", 1_700_000_000 * S, 120.0, (("dc", "x"), ("host", "db1")), "µs"),
        MetricPoint(3, "naks", 1_700_000_001 * S, 3.0, (), None),
    ]
    assert messages(report) == [(0, "timestamps: epoch seconds")]


@pytest.mark.parametrize(
    ("stamp", "note", "expected"),
    [
        ("1700000000", "epoch seconds", 1_700_000_000 * S),
        ("1700000000.5", "epoch seconds", 1_700_000_000 * S + S // 2),
        ("1700000000123", "epoch milliseconds", 1_700_000_000_123_000_000),
        ("1700000000123456", "epoch microseconds", 1_700_000_000_123_456_000),
        ("1700000000123456789", "epoch nanoseconds", 1_700_000_000_123_456_789),
        ("2023-11-14T22:13:20.5Z", "ISO 8601", 1_700_000_000 * S + S // 2),
        ("2023-11-15T00:13:20+02:00", "ISO 8601", 1_700_000_000 * S),
    ],
)
def test_each_timestamp_kind_and_its_note(stamp: str, note: str, expected: int) -> None:
    points, report = parse(f"ts,x\n{stamp},1\n")
    assert [p.time_ns for p in points] == [expected]
    assert messages(report) == [(0, f"timestamps: {note}")]


def test_iso_without_zone_is_utc_with_one_warning() -> None:
    points, report = parse("ts,x\n2023-11-14T22:13:20,1\n2023-11-14T22:13:21,2\n")
    assert [p.time_ns for p in points] == [1_700_000_000 * S, 1_700_000_001 * S]
    assert messages(report) == [(0, "timestamps: ISO 8601"), (2, NAIVE_ISO)]


def test_bad_numbers_and_times_drop_their_line_with_its_number() -> None:
    points, report = parse(
        "ts,name,value\n"
        "1700000000,a,1\n"
        "1700000001,a,abc\n"
        "1700000002000,a,3\n"
        "yesterday,a,4\n"
        "1700000004,a\n"
        "1700000005,a,5\n"
    )
    assert [p.value for p in points] == [1.0, 5.0]
    assert report.dropped_lines == 4
    warned = dict(messages(report)[1:])
    assert "value 'abc' is not a number" in warned[3]
    assert "looks like epoch milliseconds" in warned[4]
    assert "'yesterday' is neither an epoch number nor an ISO 8601 time" in warned[5]
    assert "expected 3 fields as in the header, found 2" in warned[6]


def test_a_bad_cell_in_wide_form_drops_the_whole_row() -> None:
    points, report = parse("ts,a,b\n1700000000,1,oops\n1700000001,2,3\n")
    assert [(p.line, p.name) for p in points] == [(3, "a"), (3, "b")]
    assert report.warnings[-1].line == 2
    assert "'oops' under 'b' is not a number" in report.warnings[-1].message


def test_a_cut_last_line_is_dropped_and_reported() -> None:
    points, report = parse("ts,name,value,host\n1700000000,a,1,db1\n1700000001,a,2,db")
    assert len(points) == 2  # the cut row still has four fields and reads: it is kept
    points, report = parse("ts,name,value,host\n1700000000,a,1,db1\n1700000001,a")
    assert len(points) == 1
    assert report.truncated
    assert messages(report)[-1] == (3, "the file ends in the middle of this line; dropped it")


def test_a_last_line_without_newline_is_fine() -> None:
    points, report = parse("ts,x\n1700000000,1\n1700000001,2")
    assert [p.value for p in points] == [1.0, 2.0]
    assert not report.truncated


def test_empty_file_is_a_clear_error() -> None:
    with pytest.raises(ParseError, match="the file is empty"):
        parse("")
    with pytest.raises(ParseError, match="the file is empty"):
        parse("\n# only a comment\n\n")


def test_no_time_column_names_the_header_line_the_columns_and_the_override() -> None:
    with pytest.raises(ParseError) as raised:
        parse("\n# exported\nhost,latency_ms\ndb1,2\n")
    assert raised.value.line == 3
    assert "time, ts, timestamp, date, datetime, @timestamp, epoch" in str(raised.value)
    assert "the columns are 'host', 'latency_ms'" in str(raised.value)
    assert "time_column" in str(raised.value)


def test_crlf_semicolons_decimal_commas_comments_and_quotes() -> None:
    points, report = parse(
        '\ufeff# from a spreadsheet\r\nts;name;value;note\r\n1700000000;"lat;ms";1,5;"a ""quoted"" label"\r\n'
    )
    assert points == [MetricPoint(3, "lat;ms", 1_700_000_000 * S, 1.5, (("note", 'a "quoted" label'),), None)]
    assert report.dropped_lines == 0


def test_blank_lines_between_rows_are_skipped_and_numbering_stays_right() -> None:
    points, _ = parse("ts,x\n\n1700000000,1\n\n\n1700000001,2\n")
    assert [p.line for p in points] == [3, 6]


def test_quoted_and_plain_files_read_the_same_way() -> None:
    # Plain rows go the fast way (a chunk split at once), quoted ones through the csv module, line by line.
    rows = [
        "1700000000,lat_ms,1.5,db1,eu",
        "1700000000,naks,2,db2,",
        "",
        "1700000001,lat_ms,x,db1,eu",
        "1700000001,,3,db1,eu",
        "1700000002,lat_ms,4",
        "1700000002000,lat_ms,5,db1,eu",
        "1700000003,rx_bytes_total,6,db1,eu",
    ]
    header = "ts,name,value,host,region\n"
    plain, plain_report = parse(header + "\n".join(rows) + "\n")
    quoted, quoted_report = parse(header + '"1699999999",lat_ms,0,db1,eu\n' + "\n".join(rows) + "\n")
    assert quoted[1:] == [
        MetricPoint(p.line + 1, p.name, p.time_ns, p.value, p.labels, p.unit) for p in plain
    ]
    assert [(w.line + 1, w.message) for w in plain_report.warnings[1:]] == messages(quoted_report)[1:]
    assert [p.unit for p in plain] == ["ms", None, "B"]  # the millisecond time is dropped


def test_wide_rows_with_an_empty_or_bad_cell_read_the_same_in_a_plain_file() -> None:
    text = "ts,a_ms,b\n" + "".join(f"{1_700_000_000 + i},{i},{i * 2}\n" for i in range(50))
    text += "1700000050,,1\n1700000051,x,1\n1700000052,1,2\n"
    points, report = parse(text)
    assert len(points) == 100 + 1 + 2
    assert points[100] == MetricPoint(52, "b", 1_700_000_050 * S, 1.0, (), None)
    assert messages(report)[1:] == [(53, "'x' under 'a_ms' is not a number; dropped this line")]


def test_rows_that_share_a_time_keep_their_text_columns_as_labels() -> None:
    # A row per CPU: `all` is text, and `cpu` names a thing; both make labels, not dropped lines.
    points, report = parse(
        "time,cpu,user_pct,state\n"
        "2026-11-25T17:11:35Z,all,52.4,busy\n"
        "2026-11-25T17:11:35Z,0,16.7,idle\n"
        "2026-11-25T17:11:36Z,all,50.0,busy\n"
    )
    assert report.dropped_lines == 0
    assert [(p.line, p.value, p.labels, p.unit) for p in points] == [
        (2, 52.4, (("cpu", "all"), ("state", "busy")), "%"),
        (3, 16.7, (("cpu", "0"), ("state", "idle")), "%"),
        (4, 50.0, (("cpu", "all"), ("state", "busy")), "%"),
    ]


def test_text_columns_of_rows_with_their_own_time_are_skipped_with_one_warning() -> None:
    points, report = parse(
        "epoch_ms,host,fsync_p99_us,note\n1700000000000,db1,436.1,slow disk\n1700000001000,db1,312.1,\n"
    )
    assert [(p.name, p.value, p.labels) for p in points] == [
        ("fsync_p99_us", 436.1, ()),
        ("fsync_p99_us", 312.1, ()),
    ]
    assert report.dropped_lines == 0
    assert messages(report) == [
        (
            1,
            "columns 'host', 'note' hold text, not numbers, and each row has its own time: "
            "skipped (neither a series nor a label)",
        ),
        (0, "timestamps: epoch milliseconds (as the column's name says)"),
    ]


def test_a_file_of_text_columns_only_says_it_has_no_series() -> None:
    with pytest.raises(ParseError, match=r"time column \('ts'\) but no series \(text in 'host', 'state'\)"):
        parse("ts,host,state\n1700000000,db1,up\n1700000001,db1,down\n")


def test_placeholders_for_a_missing_value_make_no_point_and_drop_no_line() -> None:
    points, report = parse("ts,a_ms,b\n1700000000,-,1\n1700000001,n/a,2\n1700000002,3,NULL\n")
    assert [(p.line, p.name) for p in points] == [(2, "b"), (3, "b"), (4, "a_ms")]
    assert report.dropped_lines == 0


def test_a_unit_in_the_time_column_name_is_the_unit_of_its_numbers() -> None:
    # 1700000000 would read as seconds by magnitude; the name says milliseconds (times from a start).
    points, report = parse("t_ms,x\n1700000000,1\n")
    assert [p.time_ns for p in points] == [1_700_000_000_000_000]
    assert messages(report) == [
        (0, "time column: 't_ms' (the first column, and its values read as times)"),
        (0, "timestamps: epoch milliseconds (as the column's name says)"),
    ]


@pytest.mark.parametrize(
    ("column", "unit"),
    [
        ("fsync_p99_us", "µs"),
        ("request_p99_ms", "ms"),
        ("dirty_kB", "KiB"),
        ("cpu_pct", "%"),
        ("rss_bytes", "B"),
        ("wait_nsec", "ns"),
        ("%user", "%"),
    ],
)
def test_units_from_column_names(column: str, unit: str) -> None:
    points, _ = parse(f"ts,{column}\n1700000000,1\n")
    assert [p.unit for p in points] == [unit]


def test_the_given_time_column_overrides_the_rules() -> None:
    text = "ingested_at,occurred_at,lat_ms\n2026-11-25T17:00:09Z,2026-11-25T17:00:01Z,3\n"
    (found,), _ = parse(text)
    assert found.time_ns == 1_795_626_009 * S  # the leftmost column that holds times
    report = ParseReport()
    (given,) = as_points(parse_csv(io.BytesIO(text.encode()), report, "occurred_at"))
    assert given.time_ns == 1_795_626_001 * S
    assert [p.name for p in [given]] == ["lat_ms"]  # the other time is text: skipped, not a series
    assert (0, "time column: 'occurred_at' (as given at upload)") in messages(report)


def test_a_header_written_as_a_comment_above_its_rows_is_the_header() -> None:
    # As `sadf -d` writes it: `# hostname;interval;timestamp;...`.
    points, report = parse(
        "# hostname;interval;timestamp;CPU;%user\n"
        "vm;1;2026-11-25 17:11:50 UTC;-1;92.42\n"
        "vm;1;2026-11-25 17:11:50 UTC;0;85.71\n"
    )
    assert [(p.line, p.name, p.value, p.labels) for p in points if p.name == "%user"] == [
        (2, "%user", 92.42, (("CPU", "-1"), ("hostname", "vm"))),
        (3, "%user", 85.71, (("CPU", "0"), ("hostname", "vm"))),
    ]
    assert report.dropped_lines == 0


@pytest.mark.parametrize(
    ("header", "row"),
    [
        ("ts,cpu,user_pct,system_pct", "{t},{cpu},{a},{b}"),
        ("ts,host,cpu,user_pct,system_pct", "{t},db{h},{cpu},{a},{b}"),
    ],
)
def test_rows_sharing_a_time_read_the_same_plain_or_quoted(header: str, row: str) -> None:
    # A text column where rows share a time is a label; each label set's layout is found by its cells.
    rows = "".join(
        row.format(t=1_700_000_000 + i // 3, cpu=("all", "0", "1")[i % 3], h=i % 2, a=i, b=i / 4) + "\n"
        for i in range(90)
    )
    plain, _ = parse(f"{header}\n{rows}")
    quoted, _ = parse(f'{header}\n"1699999999",{row.format(t="", cpu="all", h=0, a=0, b=0)[1:]}\n{rows}')
    assert len(plain) == 180
    assert quoted[2:] == [
        MetricPoint(p.line + 1, p.name, p.time_ns, p.value, p.labels, p.unit) for p in plain
    ]
    assert {dict(p.labels)["cpu"] for p in plain} == {"all", "0", "1"}


@pytest.mark.parametrize(
    ("header", "row", "bad"),
    [
        (
            "ts,cpu,user_pct,system_pct,iowait_pct",
            "{t},{cpu},{a},{b},{c}",
            "'x' under 'user_pct' is not a number",
        ),
        ("ts,name,value,cpu", "{t},user_pct,{a},{cpu}", "value 'x' is not a number"),
    ],
)
def test_values_that_repeat_over_many_rows_read_the_same_plain_or_quoted(
    header: str, row: str, bad: str
) -> None:
    # Plain runs read a column's repeated texts once each (kept across runs), distinct ones one by one.
    texts = ["0.50", ".5", "5e-1", "-0", "0", " 7", "100.00", "1e3"]
    rows = [
        row.format(
            t=1_700_000_000 + i // 3, cpu=("all", "0", "1")[i % 3], a=texts[i % 8], b=i / 7, c=texts[i % 3]
        )
        for i in range(9_000)
    ]
    rows[6_001] = rows[6_001].replace(texts[6_001 % 8], "x", 1)
    body = "\n".join(rows) + "\n"
    plain, plain_report = parse(f"{header}\n{body}")
    quoted, quoted_report = parse(f'{header}\n"1699999999",{rows[0].partition(",")[2]}\n{body}')
    first = sum(p.line == 2 for p in quoted)  # the quoted row's points
    assert quoted[first:] == [
        MetricPoint(p.line + 1, p.name, p.time_ns, p.value, p.labels, p.unit) for p in plain
    ]
    assert [(w.line + 1, w.message) for w in plain_report.warnings[1:]] == messages(quoted_report)[1:]
    assert messages(plain_report)[1:] == [(6_003, f"{bad}; dropped this line")]
    assert {p.value for p in plain if p.name == "user_pct"} == {0.5, 0.0, 7.0, 100.0, 1000.0}
