"""The collector's pure parts, imported from the package's modules: /proc parsers, filters, permissions,
redaction, metrics lines, URLs."""

from __future__ import annotations

import io
import json
import time
import urllib.parse

import pytest

from stallscope_collect.budget import Rates, estimate_bytes
from stallscope_collect.clock import clock_anchor
from stallscope_collect.console import Console
from stallscope_collect.formatting import fmt_bytes, parse_size
from stallscope_collect.metrics_cmd import parse_metric_line
from stallscope_collect.perf.filters import tid_filter, tid_ranges
from stallscope_collect.perf.permissions import permission_problems
from stallscope_collect.perf.tool import perf_prints_tod
from stallscope_collect.proc_format import RecordEncoder, stallscope_proc_header, stallscope_record
from stallscope_collect.procfs import (
    cpu_percentages,
    disk_rates,
    parse_ctx_switches,
    parse_diskstats,
    parse_meminfo,
    parse_pressure,
    parse_proc_stat,
    parse_stat_faults,
    parse_task_stat,
)
from stallscope_collect.redaction import environment_of_interest, redact_argv, redact_value
from stallscope_collect.snapshot import mapped_libraries
from stallscope_collect.upload.client import backoff_delay, capture_url
from stallscope_collect.upload.meta import capture_meta

PROC_STAT = """\
cpu  100 5 50 800 20 3 2 10 0 0
cpu0 60 5 25 400 10 2 1 5 0 0
cpu1 40 0 25 400 10 1 1 5 0 0
intr 12345 0 0
ctxt 999
"""
PROC_STAT_LATER = """\
cpu  160 5 70 880 40 3 2 10 0 0
cpu0 90 5 35 420 20 2 1 5 0 0
cpu1 70 0 35 460 20 1 1 5 0 0
"""


def test_cpu_percentages_per_cpu_and_all() -> None:
    before = parse_proc_stat(PROC_STAT)
    after = parse_proc_stat(PROC_STAT_LATER)
    assert set(before) == {"all", "0", "1"}
    pct = cpu_percentages(before, after)
    assert pct["all"] == {
        "user": 33.33,
        "nice": 0.0,
        "system": 11.11,
        "idle": 44.44,
        "iowait": 11.11,
        "irq": 0.0,
        "softirq": 0.0,
        "steal": 0.0,
    }
    assert sum(pct["0"].values()) == pytest.approx(100, abs=0.1)
    assert cpu_percentages({}, after) == {}


def test_meminfo_pressure_diskstats() -> None:
    mem = parse_meminfo("MemTotal:       24684084 kB\nActive(anon):     123 kB\nHugePages_Total:       0\n")
    assert mem == {"MemTotal": 24684084, "Active(anon)": 123, "HugePages_Total": 0}
    rows = parse_pressure(
        "some avg10=9.58 avg60=19.59 avg300=25.74 total=602938856\n"
        "full avg10=0.00 avg60=0.00 avg300=0.00 total=0\n"
    )
    assert ("some", "avg10", 9.58) in rows
    assert ("some", "total", 602938856) in rows
    assert len(rows) == 8
    disks = parse_diskstats(
        " 254       0 vda 100 0 2000 50 300 0 8000 90 0 400 140 0 0 0 0 0 0\n"
        "   7       0 loop0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n"
    )
    assert disks["vda"] == (100, 2000, 300, 8000, 400)
    later = (110, 2100, 340, 9000, 650)
    assert disk_rates(disks["vda"], later, 0.5) == {
        "reads": 20.0,
        "read_bytes": 102400.0,
        "writes": 80.0,
        "write_bytes": 1024000.0,
        "io_ms": 500.0,
    }


def test_task_stat_with_awkward_comm() -> None:
    raw = b"1234 (my (odd) name) D 1 1234 1234 0 -1 4194560 500 0 7 0 0 0 0 0 20 0 1 0"
    assert parse_task_stat(raw) == ("my (odd) name", "D")
    assert parse_stat_faults(raw) == 507
    assert parse_ctx_switches("voluntary_ctxt_switches:\t12\nnonvoluntary_ctxt_switches:\t3\n") == (12, 3)


def test_proc_format_lines_exactly() -> None:
    assert stallscope_proc_header("db-7", 50, [1234]) == (
        '{"stallscope": "proc-sampler", "version": 1, "host": "db-7", '
        '"interval_ms": 50, "target_pids": [1234]}'
    )
    line = stallscope_record(1700000000000000000, "thread.state", {"pid": "1", "tid": "2"}, 1)
    assert line == (
        '{"t": 1700000000000000000, "name": "thread.state", "labels": {"pid": "1", "tid": "2"}, "value": 1}'
    )


def test_fast_record_encoding_matches_json() -> None:
    encode = RecordEncoder()
    cases = [
        (1, "mem.Active(anon)", {}, 123),
        (2, "cpu.user", {"cpu": "all"}, 12.5),
        (3, "cpu.idle", {"cpu": "0"}, 0.0),
        (4, "disk.read_bytes", {"device": "nvme0n1"}, 1e16),
        (5, "thread.state", {"pid": "1", "tid": "2", "comm": 'we"ird\\ \u00e9 name', "state": "D"}, 1),
        (6, "pressure.io.some.total", {}, 602938856),
        (7, "thread.ctx_switches.voluntary", {"pid": "1", "tid": "2", "comm": "x"}, 904.16),
        (8, "weird\tname", {}, -0.001),
    ]
    for _ in range(2):  # the second round comes from the caches
        for t, name, labels, value in cases:
            assert encode(t, name, labels, value) == stallscope_record(t, name, labels, value)


def test_tid_filters_compress_runs() -> None:
    assert tid_ranges([7, 1, 2, 3, 9, 8, 20]) == [(1, 3), (7, 9), (20, 20)]
    assert tid_filter(("prev_pid", "next_pid"), [5, 6, 9]) == (
        "(prev_pid >= 5 && prev_pid <= 6) || prev_pid == 9 || "
        "(next_pid >= 5 && next_pid <= 6) || next_pid == 9"
    )


def test_permission_messages_name_the_mode_and_the_sysctl() -> None:
    refused, warnings = permission_problems(["cpu", "offcpu", "syscalls"], False, 2, privileged=False)
    assert set(refused) == {"offcpu", "syscalls"}
    assert "off-CPU" in refused["offcpu"]
    assert "kernel.perf_event_paranoid <= -1" in refused["offcpu"]
    assert "sysctl -w kernel.perf_event_paranoid=-1" in refused["offcpu"]
    assert warnings
    assert "kernel frames" in warnings[0]
    refused, _ = permission_problems(["cpu"], True, 1, privileged=False)
    assert "kernel.perf_event_paranoid=0" in refused["cpu"]
    refused, _ = permission_problems(["cpu", "faults"], False, 3, privileged=False)
    assert set(refused) == {"cpu", "faults"}
    assert permission_problems(["cpu", "offcpu"], True, 4, privileged=True) == ({}, [])


def test_secrets_never_leave_the_host() -> None:
    argv = [
        "postgres",
        "--password=hunter2",
        "--token",
        "abc",
        "-Dapi_key=zz",
        "postgres://app:pw@db/x",
        "--port=5",
    ]
    assert redact_argv(argv) == [
        "postgres",
        "--password=<redacted>",
        "--token",
        "<redacted>",
        "-Dapi_key=<redacted>",
        "postgres://app:<redacted>@db/x",
        "--port=5",
    ]
    environ = b"\0".join(
        [
            b"PATH=/usr/bin",
            b"AWS_SECRET_ACCESS_KEY=abc",
            b"DATABASE_URL=postgres://u:p@h/d",
            b"LD_PRELOAD=/usr/lib/libjemalloc.so",
            b"MALLOC_ARENA_MAX=2",
            b"GLIBC_TUNABLES=glibc.malloc.trim_threshold=1",
            b"JAVA_TOOL_OPTIONS=-Xmx4g -Djavax.net.ssl.keyStorePassword=secret",
        ]
    )
    assert environment_of_interest(environ) == {
        "LD_PRELOAD": "/usr/lib/libjemalloc.so",
        "MALLOC_ARENA_MAX": "2",
        "GLIBC_TUNABLES": "glibc.malloc.trim_threshold=1",
        "JAVA_TOOL_OPTIONS": "-Xmx4g -Djavax.net.ssl.keyStorePassword=<redacted>",
    }


def test_headers_in_commands_are_masked() -> None:
    cmd = "curl -s -H 'Authorization: Bearer abc.def' https://u:pw@app/metrics?token=x"
    assert redact_value(cmd) == (
        "curl -s -H 'Authorization: Bearer <redacted>' https://u:<redacted>@app/metrics?token=<redacted>"
    )
    meta = capture_meta("app-metrics", [["sh", "-c", cmd]], [1], None, [])
    assert "abc.def" not in json.dumps(meta)
    assert "pw@" not in json.dumps(meta)


def test_mapped_libraries_unique_paths() -> None:
    maps = (
        "55d0-55d1 r--p 00000000 fe:00 1 /usr/bin/python3.11\n"
        "7f00-7f01 r-xp 00000000 fe:00 2 /usr/lib/x86_64-linux-gnu/libc.so.6\n"
        "7f01-7f02 r--p 00001000 fe:00 2 /usr/lib/x86_64-linux-gnu/libc.so.6\n"
        "7f03-7f04 rw-p 00000000 00:00 0 [heap]\n"
        "7f05-7f06 rw-p 00000000 00:00 0\n"
    )
    assert mapped_libraries(maps) == ["/usr/bin/python3.11", "/usr/lib/x86_64-linux-gnu/libc.so.6"]


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("queue_depth 3", [("queue_depth", {}, 3)]),
        (
            'http_requests_total{method="get",code="200"} 1027 1395066363000',
            [("http_requests_total", {"method": "get", "code": "200"}, 1027)],
        ),
        (
            '{"name": "lat", "value": 1.5, "labels": {"op": "get", "shard": 3}}',
            [("lat", {"op": "get", "shard": "3"}, 1.5)],
        ),
        (
            '{"pool": {"active": 4, "idle": 2}, "ok": true, "note": "x"}',
            [("pool.active", {}, 4), ("pool.idle", {}, 2), ("ok", {}, 1)],
        ),
        ("# HELP something", []),
        ("gauge NaN", []),
        ("", []),
    ],
)
def test_metric_lines(line: str, expected: list) -> None:
    assert parse_metric_line(line) == expected


def test_metric_line_garbage_is_reported() -> None:
    with pytest.raises(ValueError, match="name value"):
        parse_metric_line("this is not a metric")


def test_capture_url_carries_the_contract_parameters() -> None:
    info = {
        "incident": 12,
        "filename": "x-cpu.perf.txt.gz",
        "host": "db 7",
        "kind": "cpu",
        "clock": {"perf_clock": "monotonic", "anchors": []},
        "meta": {"collector": "c", "commands": ["perf record -e 'a b'"], "kind": "cpu", "target_pids": [1]},
    }
    url = capture_url("https://s.example/base/", info)
    parts = urllib.parse.urlsplit(url)
    assert parts.path == "/base/api/collector/captures"
    query = urllib.parse.parse_qsl(parts.query)
    assert [k for k, _ in query] == ["incident", "filename", "host", "kind", "clock", "meta"]
    values = dict(query)
    assert values["host"] == "db 7"
    assert json.loads(values["clock"]) == info["clock"]
    assert json.loads(values["meta"]) == info["meta"]
    info["clock"] = None
    assert "clock=" not in capture_url("https://s.example", info)


def test_backoff_grows_with_jitter_and_a_cap() -> None:
    for attempt in range(8):
        delays = [backoff_delay(attempt, 1.0) for _ in range(50)]
        full = min(30.0, 2.0**attempt)
        assert all(full / 2 <= d <= full for d in delays)
        assert len(set(delays)) > 1


def test_console_on_a_pipe_and_on_a_terminal() -> None:
    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    pipe = io.StringIO()
    console = Console(stream=pipe)
    for i in range(5):
        console.status(f"recording {i}")
    console.info("done")
    assert pipe.getvalue() == "recording 0\ndone\n", "a pipe gets whole lines, not one per update"

    tty = Tty()
    console = Console(stream=tty)
    console.status("a")
    console.status("b")
    console.info("done")
    assert tty.getvalue() == "\r\x1b[Ka\r\x1b[Kb\r\x1b[Kdone\n"

    quiet = io.StringIO()
    console = Console(quiet=True, stream=quiet)
    console.status("x")
    console.info("y")
    console.warn("z")
    assert quiet.getvalue() == "warning: z\n"


def test_clock_anchor_pairs_the_clocks() -> None:
    anchor = clock_anchor()
    assert set(anchor) == {"monotonic_ns", "realtime_ns"}
    assert abs(anchor["monotonic_ns"] - time.clock_gettime_ns(time.CLOCK_MONOTONIC)) < 1_000_000_000
    assert abs(anchor["realtime_ns"] - time.time_ns()) < 1_000_000_000


def test_estimate_and_sizes() -> None:
    rates = Rates(ncpu=2, threads=6, ctx_per_s=1000, faults_per_s=100, disks=2, meminfo_fields=55)
    est = estimate_bytes(["cpu", "offcpu"], rates, 30, 49, 20, system_wide=False, proc_sampler=True)
    assert set(est) == {"cpu", "offcpu", "proc"}
    assert est["offcpu"] > est["cpu"] > 0
    assert parse_size("256M") == 256 << 20
    assert parse_size("1.5g") == 3 << 29
    assert parse_size("10") == 10
    assert fmt_bytes(10) == "10 B"
    assert fmt_bytes(3 << 20) == "3.0 MiB"


def test_perf_prints_its_wall_clock_column_from_5_11() -> None:
    assert perf_prints_tod("perf version 6.1.192")
    assert perf_prints_tod("perf version 5.11.0")
    assert not perf_prints_tod("perf version 5.10.102")
    assert not perf_prints_tod("perf version 4.19.0-27-amd64")
    assert not perf_prints_tod("perf: unknown version")
