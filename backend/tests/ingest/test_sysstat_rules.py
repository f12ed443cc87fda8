"""The sysstat importer's rules, each on a small hand-written input cut from real output's shape."""

from __future__ import annotations

import io

import pytest

from stallscope.ingest.model import MetricPoint, ParseError, ParseReport
from stallscope.ingest.sysstat import IMPORTER
from stallscope.ingest.sysstat.clock import DayClock, TimesOfDay, date_seconds, day_seconds, iso_stamp_seconds
from stallscope.ingest.sysstat.naming import layout, unit_of
from tests.ingest.records import as_points

BANNER = "Linux 6.1.0 (db1) \t11/21/2026 \t_x86_64_\t(2 CPU)\n\n"
MPSTAT_HEADER = "23:59:58     CPU    %usr   %nice    %sys   %idle\n"
DAY = 86_400 * 1_000_000_000
NOV_21 = 1_795_219_200 * 1_000_000_000  # 2026-11-21T00:00:00Z


def parse(text: str) -> tuple[list[MetricPoint], ParseReport]:
    report = ParseReport()
    points = as_points(IMPORTER.parse(io.BytesIO(text.encode()), report))
    assert all(isinstance(p, MetricPoint) for p in points)
    return points, report


def test_a_bad_number_drops_its_row_and_names_the_line() -> None:
    points, report = parse(
        BANNER + MPSTAT_HEADER + "23:59:59     all    1.00    0.00    2.00   97.00\n"
        "23:59:59       0    x.xx    0.00    2.00   97.00\n"
        "23:59:59       1    1.00    0.00    2.00   97.00\n"
    )
    assert {dict(p.labels)["cpu"] for p in points} == {"all", "1"}
    assert report.dropped_lines == 1
    bad = [w for w in report.warnings if "not a number" in w.message]
    assert [w.line for w in bad] == [5]
    assert "'x.xx'" in bad[0].message


def test_a_row_with_missing_columns_is_dropped() -> None:
    points, report = parse(BANNER + MPSTAT_HEADER + "23:59:59     all    1.00    0.00\n")
    assert points == []
    assert report.warnings[-1].line == 4
    assert "expected 5 columns" in report.warnings[-1].message


def test_a_cut_last_line_is_dropped_and_the_report_marked() -> None:
    points, report = parse(
        BANNER
        + MPSTAT_HEADER
        + "23:59:59     all    1.00    0.00    2.00   97.00\n23:59:59       0    1.00    0.0"
    )
    assert len(points) == 4
    assert report.truncated
    assert report.dropped_lines == 1
    assert report.warnings[-1].line == 5
    assert "ends in the middle" in report.warnings[-1].message


def test_decimal_commas_of_other_locales() -> None:
    points, report = parse(BANNER + MPSTAT_HEADER + "23:59:59     all    1,50    0,00    2,25   96,25\n")
    assert [p.value for p in points] == [1.5, 0.0, 2.25, 96.25]
    assert report.dropped_lines == 0


def test_averages_are_skipped_and_times_roll_over_midnight() -> None:
    points, _ = parse(
        BANNER + MPSTAT_HEADER + "23:59:59     all    1.00    0.00    2.00   97.00\n\n"
        "23:59:59     CPU    %usr   %nice    %sys   %idle\n"
        "00:00:00     all    1.00    0.00    2.00   97.00\n\n"
        "Average:     CPU    %usr   %nice    %sys   %idle\n"
        "Average:     all    1.00    0.00    2.00   97.00\n"
    )
    assert sorted({p.time_ns for p in points}) == [NOV_21 + DAY - 1_000_000_000, NOV_21 + DAY]


def test_sar_restart_rows_are_reported_and_reset_the_header() -> None:
    points, report = parse(
        BANNER + "10:00:01 AM     CPU     %user   %idle\n10:10:01 AM     all      2.00   98.00\n"
        "10:15:22 AM       LINUX RESTART\t(2 CPU)\n"
        "10:20:01 AM     CPU     %user   %idle\n10:30:01 AM     all      3.00   97.00\n"
    )
    assert len(points) == 4
    assert any(w.line == 5 and "restarted" in w.message for w in report.warnings)


def test_rows_after_a_header_of_the_same_width_follow_the_new_header() -> None:
    # Rows of a known layout take a quicker way than the rest; a new header of the same width must
    # still switch the layout, and a row the quick way cannot read must still be read (or dropped).
    points, report = parse(
        BANNER + MPSTAT_HEADER + "23:59:59     all    1.00    0.00    2.00   97.00\n"
        "23:59:59       0    1,50    0.00    2.00   96.50\n"
        "23:59:59       1    x.xx    0.00    2.00   97.00\n"
        "23:59:59     CPU    %usr   %nice    %sys   %iowait\n"
        "00:00:00       0    1.00    0.00    2.00      0.25\n"
        "00:00:00     CPU    %usr   %nice    %sys   %iowait\n"
        "00:00:01       0    1.00    0.00    2.00      0.50\n"
    )
    assert [(p.line, p.name, dict(p.labels)["cpu"], p.value) for p in points[4:8]] == [
        (5, "cpu.user", "0", 1.5),
        (5, "cpu.nice", "0", 0.0),
        (5, "cpu.system", "0", 2.0),
        (5, "cpu.idle", "0", 96.5),
    ]
    assert [(p.name, p.time_ns) for p in points if p.name == "cpu.iowait"] == [
        ("cpu.iowait", NOV_21 + DAY),
        ("cpu.iowait", NOV_21 + DAY + 1_000_000_000),
    ]
    assert [w.line for w in report.warnings if "dropped" in w.message] == [6]


def test_twelve_hour_rows_read_the_same_as_twenty_four_hour_rows() -> None:
    twelve, _ = parse(
        BANNER + "11:59:58 PM     CPU    %usr   %nice    %sys   %idle\n"
        "11:59:59 PM     all    1.00    0.00    2.00   97.00\n"
        "11:59:59 PM       0    1.00    0.00    2.00   97.00\n"
        "12:00:00 AM     all    1.00    0.00    2.00   97.00\n"
    )
    twenty_four, _ = parse(
        BANNER + MPSTAT_HEADER + "23:59:59     all    1.00    0.00    2.00   97.00\n"
        "23:59:59       0    1.00    0.00    2.00   97.00\n"
        "00:00:00     all    1.00    0.00    2.00   97.00\n"
    )
    assert twelve == twenty_four
    assert twelve[-1].time_ns == NOV_21 + DAY


def test_a_row_before_any_header_is_dropped() -> None:
    points, report = parse(BANNER + "23:59:59     all    1.00    0.00    2.00   97.00\n")
    assert points == []
    assert report.warnings[0].line == 3


def test_an_empty_file_is_an_error() -> None:
    with pytest.raises(ParseError, match="empty"):
        parse("\n\n")


def test_text_from_another_tool_is_an_error_naming_line_one() -> None:
    with pytest.raises(ParseError, match="mpstat, sar or iostat") as raised:
        parse("hello world\n")
    assert raised.value.line == 1


def test_an_unreadable_banner_date_is_an_error_with_a_hint() -> None:
    with pytest.raises(ParseError, match="S_TIME_FORMAT=ISO"):
        parse("Linux 6.1.0 (db1) \t2026年11月21日 \t_x86_64_\t(2 CPU)\n\n" + MPSTAT_HEADER)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("11/21/26", "2026-11-21"),
        ("11/21/2026", "2026-11-21"),
        ("2026-11-21", "2026-11-21"),
        ("21/11/2026", "2026-11-21"),  # en_GB: the first number cannot be a month
        ("21.11.2026", "2026-11-21"),
        ("13/13/2026", None),
        ("6.18.44", None),
    ],
)
def test_dates(text: str, expected: str | None) -> None:
    import datetime as dt

    seconds = date_seconds(text)
    if expected is None:
        assert seconds is None
    else:
        assert seconds == int(dt.datetime.fromisoformat(expected + "T00:00:00+00:00").timestamp())


@pytest.mark.parametrize(
    ("clock", "meridiem", "seconds"),
    [
        ("00:28:21", None, 28 * 60 + 21),
        ("12:28:21", "AM", 28 * 60 + 21),
        ("12:00:00", "PM", 12 * 3600),
        ("11:59:59", "PM", 86_399),
        ("13:00:00", "PM", None),
        ("24:00:00", None, None),
        ("7:05:60", None, 7 * 3600 + 5 * 60 + 60),
        ("07:05:61", None, None),
        ("07:60:00", None, None),
        ("07:05:5", None, None),
        ("07:05:5x", None, None),
        ("Average:", None, None),
        ("5", None, None),
    ],
)
def test_times_of_day(clock: str, meridiem: str | None, seconds: int | None) -> None:
    assert day_seconds(clock, meridiem) == seconds
    times = TimesOfDay()  # the same, a minute at a time: read twice, the second from its cache
    assert times.seconds(clock, meridiem) == times.seconds(clock, meridiem) == seconds


def test_iso_stamps_apply_their_offset() -> None:
    assert iso_stamp_seconds("2026-11-22T02:00:00+0200") == (1_795_305_600, True)
    assert iso_stamp_seconds("2026-11-22T00:00:00") == (1_795_305_600, False)


def test_day_clock_tolerates_a_small_step_back() -> None:
    clock = DayClock(0)
    assert clock.at(3600) == 3600 * 1_000_000_000
    assert clock.at(0) == 0  # a clock change, not a new day
    assert clock.at(23 * 3600) == 23 * 3600 * 1_000_000_000
    assert clock.at(10) == (86_400 + 10) * 1_000_000_000


@pytest.mark.parametrize(
    ("column", "unit"),
    [
        ("%usr", "%"),
        ("r_await", "ms"),
        ("await", "ms"),
        ("rkB/s", "KiB/s"),
        ("kB_read/s", "KiB/s"),
        ("kbmemfree", "KiB"),
        ("rareq-sz", "KiB"),
        ("MBfsfree", "MiB"),
        ("cswch/s", "/s"),
        ("tps", "/s"),
        ("aqu-sz", None),
        ("runq-sz", None),
    ],
)
def test_units_from_column_headers(column: str, unit: str | None) -> None:
    assert unit_of(column) == unit


def test_names_from_headers() -> None:
    cpu = layout(["CPU", "%usr", "%sys", "%soft", "%gnice"], "sysstat")
    assert [c.name for c in cpu.columns] == ["cpu.user", "cpu.system", "cpu.softirq", "cpu.guest_nice"]
    assert cpu.label_key == "cpu"
    unknown = layout(["widgets/s", "%widgets"], "sysstat")
    assert [c.name for c in unknown.columns] == ["sysstat.widgets", "sysstat.widgets_pct"]
    psi = layout(["%sio-10", "%fmem"], "sysstat")
    assert [c.name for c in psi.columns] == ["pressure.io.some.avg10", "pressure.memory.full.interval"]
