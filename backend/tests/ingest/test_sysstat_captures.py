"""The sysstat importer on real mpstat, iostat, vmstat and sar outputs (provenance in data/sysstat)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from stallscope.ingest.model import CaptureClock, MetricPoint, ParseError, ParseReport
from stallscope.ingest.sysstat import IMPORTER
from stallscope.ingest.sysstat.clock import LOCAL_AS_UTC
from tests.ingest.records import as_points

DATA = Path(__file__).parent / "data" / "sysstat"
CPU_FIELDS = ["user", "nice", "system", "iowait", "irq", "softirq", "steal", "guest", "guest_nice", "idle"]
RECORDED = sorted(p.name for p in DATA.glob("*.txt") if "no_times" not in p.name)


def parse(name: str) -> tuple[list[MetricPoint], ParseReport]:
    report = ParseReport()
    with (DATA / name).open("rb") as stream:
        points = as_points(IMPORTER.parse(stream, report))
    assert all(isinstance(p, MetricPoint) for p in points)
    return points, report


def at(text: str) -> int:
    return int(datetime.fromisoformat(text).replace(tzinfo=UTC).timestamp()) * 1_000_000_000


def series(points: list[MetricPoint]) -> set[str]:
    return {p.name for p in points}


def test_importer_reads_wall_clock_time() -> None:
    assert IMPORTER.name == "sysstat"
    assert IMPORTER.clock is CaptureClock.REALTIME


@pytest.mark.parametrize("name", RECORDED)
def test_every_recording_is_detected_and_read_whole(name: str) -> None:
    assert IMPORTER.detect((DATA / name).read_bytes()[: 64 * 1024])
    points, report = parse(name)
    assert points
    assert report.dropped_lines == 0
    assert not report.truncated
    times = {p.time_ns for p in points}
    assert at("2026-11-21T11:59:00") <= min(times)
    assert max(times) <= at("2026-11-25T17:01:00")
    for point in points:
        assert point.labels == tuple(sorted(point.labels))


@pytest.mark.parametrize("name", [n for n in RECORDED if not n.startswith("vmstat") and "iso" not in n])
def test_local_times_are_read_as_utc_with_one_warning(name: str) -> None:
    _, report = parse(name)
    assert [w.message for w in report.warnings].count(LOCAL_AS_UTC) == 1


def test_mpstat_rows_become_cpu_series_per_cpu() -> None:
    points, report = parse("mpstat_P_ALL.txt")
    first = {(p.name, p.labels): p for p in points if p.time_ns == at("2026-11-22T00:31:08")}
    assert first["cpu.user", (("cpu", "all"),)].value == 46.97
    assert first["cpu.system", (("cpu", "0"),)].value == 31.31
    assert first["cpu.user", (("cpu", "all"),)].unit == "%"
    assert first["cpu.user", (("cpu", "all"),)].line == 4
    assert series(points) == {f"cpu.{field}" for field in CPU_FIELDS}
    assert {dict(p.labels)["cpu"] for p in points} == {"all", "0", "1"}
    assert len(points) == 3 * 3 * 10  # intervals x (all + 2 CPUs) x columns; averages skipped
    assert report.warnings[0].line == 4


@pytest.mark.parametrize("name", ["mpstat_P_ALL.txt", "mpstat_P_ALL_12h.txt", "mpstat_P_ALL_iso.txt"])
def test_mpstat_locales_agree_on_shape(name: str) -> None:
    points, _ = parse(name)
    assert len(points) == 90
    assert len({p.time_ns for p in points}) == 3


def test_12_hour_times_after_midnight_are_read_as_0h() -> None:
    points, _ = parse("mpstat_P_ALL_12h.txt")
    assert min(p.time_ns for p in points) == at("2026-11-22T00:31:11")


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("mpstat_P_ALL_midnight.txt", ["2026-11-21T23:59:59", "2026-11-22T00:00:00", "2026-11-22T00:00:01"]),
        ("sar_u_q_12h_midnight.txt", ["2026-11-21T23:59:59", "2026-11-22T00:00:00", "2026-11-22T00:00:01"]),
        ("sar_u_12h_noon.txt", ["2026-11-21T11:59:59", "2026-11-21T12:00:00", "2026-11-21T12:00:01"]),
        (
            "iostat_x_t_12h_midnight.txt",
            ["2026-11-21T23:59:58", "2026-11-21T23:59:59", "2026-11-22T00:00:00"],
        ),
        ("vmstat_t_midnight.txt", ["2026-11-21T23:59:58", "2026-11-21T23:59:59", "2026-11-22T00:00:00"]),
    ],
)
def test_times_cross_midnight_and_noon(name: str, expected: list[str]) -> None:
    points, _ = parse(name)
    assert sorted({p.time_ns for p in points}) == [at(t) for t in expected]


def test_iostat_reports_cpu_and_devices() -> None:
    points, report = parse("iostat_x_t.txt")
    first = {(p.name, p.labels): p for p in points if p.time_ns == min(q.time_ns for q in points)}
    user = first["cpu.user", (("cpu", "all"),)]
    assert user.unit == "%"
    await_ = next(p for (name, _), p in first.items() if name == "disk.read_await")
    assert await_.labels == (("device", "vda"),)
    assert await_.unit == "ms"
    assert {"disk.reads", "disk.read_kib", "disk.queue_size", "disk.util", "disk.flush_await"} <= series(
        points
    )
    assert next(p for (name, _), p in first.items() if name == "disk.read_kib").unit == "KiB/s"
    assert any("since boot" in w.message for w in report.warnings)


def test_iostat_iso_stamps_carry_their_zone_so_no_utc_warning() -> None:
    points, report = parse("iostat_x_t_iso.txt")
    assert min(p.time_ns for p in points) == at("2026-11-22T00:31:23")
    assert LOCAL_AS_UTC not in [w.message for w in report.warnings]
    first = [p for p in points if p.time_ns == at("2026-11-22T00:31:23")]
    assert next(p for p in first if p.name == "cpu.user").value == 41.88
    assert next(p for p in first if p.name == "disk.reads").value == 51.72


def test_iostat_without_x_has_throughput_columns() -> None:
    points, _ = parse("iostat_t.txt")
    assert {"disk.tps", "disk.read_kib", "disk.read_kib_total"} <= series(points)


def test_vmstat_maps_columns_and_drops_since_boot_rates_of_the_first_row() -> None:
    points, report = parse("vmstat_t.txt")
    first_time = at("2026-11-22T00:31:29")
    first = {p.name: p for p in points if p.time_ns == first_time}
    assert set(first) == {"vm.r", "vm.b", "vm.swpd", "vm.free", "vm.buff", "vm.cache"}
    assert first["vm.free"].value == 21266564
    assert first["vm.free"].unit == "KiB"
    second = {p.name: p for p in points if p.time_ns == first_time + 1_000_000_000}
    assert second["cpu.user"].value == 77
    assert second["cpu.user"].labels == (("cpu", "all"),)
    assert second["vm.cs"].labels == ()
    assert second["vm.cs"].unit == "/s"
    assert any("since boot" in w.message for w in report.warnings)
    assert LOCAL_AS_UTC not in [w.message for w in report.warnings]  # the header says UTC


def test_vmstat_in_another_zone_says_which() -> None:
    points, report = parse("vmstat_t_new_york.txt")
    assert [w.message for w in report.warnings if "EST" in w.message]
    assert min(p.time_ns for p in points) == at("2026-11-21T19:31:35")


@pytest.mark.parametrize("name", ["vmstat_t_wide.txt", "vmstat_t_active.txt"])
def test_vmstat_variants(name: str) -> None:
    points, _ = parse(name)
    assert {"vm.free", "cpu.idle"} <= series(points)
    if "active" in name:
        assert {"vm.active", "vm.inact"} <= series(points)


def test_sar_sections_each_get_their_group() -> None:
    points, _ = parse("sar_u_r_B_12h.txt")
    first = {p.name: p for p in points if p.time_ns == at("2026-11-22T00:31:44")}
    assert first["cpu.user"].value == 74.24
    assert first["paging.fault"].value == 60972.28
    assert first["paging.fault"].unit == "/s"
    assert first["mem.free"].value == 21154892
    assert first["mem.free"].unit == "KiB"
    assert first["mem.used_pct"].unit == "%"


def test_sar_labelled_sections() -> None:
    points, _ = parse("sar_u_P_ALL_d_n_DEV.txt")
    names = series(points)
    assert {"cpu.user", "disk.await", "disk.util", "net.rxpck", "net.ifutil"} <= names
    assert {dict(p.labels).get("iface") for p in points if p.name == "net.rxpck"} >= {"lo", "eth0"}
    assert {p.unit for p in points if p.name == "disk.await"} == {"ms"}


def test_sar_all_sections_without_a_dropped_line() -> None:
    points, _ = parse("sar_A.txt")
    names = series(points)
    assert {"pressure.cpu.some.avg10", "pressure.io.full.avg300", "fs.used_pct", "load.ldavg_1"} <= names
    irq = [p for p in points if p.name == "irq.rate"]
    assert {dict(p.labels)["cpu"] for p in irq} == {"all", "0", "1"}
    assert {"sum", "LOC"} <= {dict(p.labels)["irq"] for p in irq}


def test_sar_all_keeps_the_fibre_channel_rows() -> None:
    # sysstat 12 prints the FCHOST label column after the counters; it used to be read as a value.
    points, report = parse("sar_A_fc.txt")
    assert report.dropped_lines == 0
    fc = [p for p in points if p.name.startswith("fc.")]
    assert {p.name for p in fc} == {"fc.fch_rxf", "fc.fch_txf", "fc.fch_rxw", "fc.fch_txw"}
    assert {p.labels for p in fc} == {(("fchost", "host0"),)}
    assert {p.unit for p in fc} == {"/s"}
    first = {p.name: p.value for p in fc if p.time_ns == at("2026-11-25T17:00:25")}
    assert first == {
        "fc.fch_rxf": 10800.0,
        "fc.fch_txf": 5400.0,
        "fc.fch_rxw": 5529600.0,
        "fc.fch_txw": 2764800.0,
    }


def test_mpstat_interrupt_matrices() -> None:
    points, _ = parse("mpstat_I_ALL_P_ALL.txt")
    assert series(points) == {"cpu.intr", "irq.rate", "softirq.rate"}
    softirqs = {dict(p.labels)["irq"] for p in points if p.name == "softirq.rate"}
    assert {"TIMER", "NET_RX", "RCU"} <= softirqs


@pytest.mark.parametrize(
    ("name", "flag"), [("iostat_x_no_times.txt", "iostat -x -t"), ("vmstat_no_times.txt", "vmstat -t")]
)
def test_outputs_without_timestamps_are_refused(name: str, flag: str) -> None:
    with pytest.raises(ParseError, match="no timestamps") as raised:
        parse(name)
    assert flag in str(raised.value)
    assert raised.value.line > 0
