"""`watch` for real: rounds of perf, /proc samples and the snapshot sent to a stub of the watch
stream, spooled while the console is away, pruned once sent, and stopped by SIGTERM; and the pure
parts (the schedule, the snapshot's change, pruning, the upload URL) on their own.

The end-to-end tests need perf and the right to trace every CPU; where that is missing they are
skipped with the collector's own reason.
"""

from __future__ import annotations

import gzip
import json
import os
import signal
import subprocess
import sys
import threading
import time
from datetime import datetime
from http.server import ThreadingHTTPServer
from pathlib import Path
from typing import Any, Callable

import pytest

from stallscope_collect.console import Console
from stallscope_collect.perf.permissions import perf_privileged, permission_problems, read_paranoid
from stallscope_collect.perf.tool import find_perf
from stallscope_collect.upload.client import capture_url
from stallscope_collect.upload.spool import Spool
from stallscope_collect.watch.local import SPOOLED_MARK, mark_spooled, prune_rounds
from stallscope_collect.watch.schedule import Schedule
from stallscope_collect.watch.snapshot_change import SnapshotTracker, section_hashes

from .conftest import StubServer, run_collect, zipapp

# Windows of a second, rounds every four: the shortest interval the windows fit in (1 s plus the
# 3 s a round needs to start and stop perf, convert and spool).
SHORT = ["watch", "--interval", "4", "--cpu-seconds", "1", "--offcpu-seconds", "1"]
FAST = ["--retries", "2", "--retry-delay", "0.01", "--timeout", "5"]
TOKEN = {"STALLSCOPE_TOKEN": "s3cret-token"}


def need_perf() -> None:
    """Skip, with the collector's reason, unless perf may sample every CPU and trace the scheduler."""
    perf, why = find_perf()
    if perf is None:
        pytest.skip(why)
    refused, _ = permission_problems(["cpu", "offcpu"], True, read_paranoid(), perf_privileged())
    if refused:
        pytest.skip("; ".join(refused.values()))


def round_lines(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith("round ")]


def kinds_of(line: str, snapshot: bool) -> list[str]:
    """What a round's line says it recorded: off-CPU is left out, with the reason in the line, when
    the host switches context too often at that moment (record's guard), as a busy host may."""
    kinds = ["cpu", "proc"] + ([] if "offcpu left out" in line else ["offcpu"])
    return sorted(kinds + (["snapshot"] if snapshot else []))


def sent(stub: StubServer) -> list[dict[str, Any]]:
    """Every upload the stub got, in the order they came, each with its query and `meta` parsed."""
    out = []
    for req in stub.requests:
        query = req["query"]
        out.append({**query, "meta": json.loads(query["meta"]), "body": gzip.decompress(req["body"])})
    return out


def spool_files(spool: Path) -> list[str]:
    return sorted(p.name for p in spool.iterdir() if not p.name.startswith(".")) if spool.exists() else []


def test_two_rounds_go_to_the_watch_stream_in_order_with_the_snapshot_once(
    stub: StubServer, tmp_path: Path
) -> None:
    """The console (or its proxy) answers 503 to round 1's first upload, so round 1 waits in the
    spool and round 2 sends it, in the order it was taken, before its own files."""
    need_perf()
    stub.responses.append((503, {"detail": "starting up"}))
    out, spool = tmp_path / "rounds", tmp_path / "spool"
    args = [*SHORT, "--rounds", "2", "--server", stub.url, "--host", "web-1", "--keep-local", "1"]
    args += ["--output", str(out), "--spool", str(spool), "--retries", "0", "--timeout", "5"]
    result = run_collect(args, env=TOKEN)
    assert result.returncode == 0, result.stderr

    lines = round_lines(result.stderr)
    assert len(lines) == 2, result.stderr
    expected = {1: kinds_of(lines[0], snapshot=True), 2: kinds_of(lines[1], snapshot=False)}
    assert all(r["path"] == "/api/collector/captures" for r in stub.requests)
    uploads = sent(stub)[1:]  # the first was refused
    order = [u["meta"]["watch"]["round"] for u in uploads]
    assert order == [1] * len(expected[1]) + [2] * len(expected[2]), f"round 1 first\n{result.stderr}"
    kinds: dict[int, list[str]] = {}
    for up in uploads:
        assert up["watch"] == "true"
        assert "incident" not in up, "the watch stream, not an incident"
        assert up["host"] == "web-1"
        watch = up["meta"]["watch"]
        assert set(watch) == {"round", "interval_s", "started_at"}
        assert watch["interval_s"] == 4
        assert isinstance(watch["interval_s"], int), "a whole number of seconds is sent as one"
        datetime.fromisoformat(watch["started_at"].replace("Z", "+00:00"))
        assert up["meta"]["kind"] == up["kind"]
        kinds.setdefault(watch["round"], []).append(up["kind"])
        if up["kind"] in ("cpu", "offcpu"):
            clock = json.loads(up["clock"])
            assert len(clock["anchors"]) == 2
            assert any(" record " in c and " -a " in c for c in up["meta"]["commands"])
        else:
            assert "clock" not in up
    assert sorted(kinds[1]) == expected[1]
    assert "snapshot" in kinds[1]
    assert sorted(kinds[2]) == expected[2], "the snapshot did not change: not sent again"
    by_kind = {(u["meta"]["watch"]["round"], u["kind"]): u["body"] for u in uploads}
    for (_, kind), body in by_kind.items():
        if kind == "offcpu":
            assert b"sched:sched_switch:" in body
        if kind == "cpu":
            assert b"cpu-clock" in body or b"cycles" in body
    assert json.loads(by_kind[(1, "proc")].splitlines()[0])["stallscope"] == "proc-sampler"
    assert json.loads(by_kind[(1, "snapshot")])["stallscope"] == "snapshot"

    assert lines[0].startswith("round 1 ")
    assert "snapshot: first of this run" in lines[0]
    n1, n2 = len(expected[1]), len(expected[2])
    assert f"uploaded 0 of {n1}, {n1} wait in the spool" in lines[0]
    assert lines[1].startswith("round 2 ")
    assert "snapshot unchanged, not sent" in lines[1]
    assert f"uploaded {n2} of {n2} and {n1} from earlier rounds" in lines[1]
    assert all("own CPU" in line for line in lines)
    assert spool_files(spool) == []
    rounds = sorted(p.name for p in out.iterdir())
    assert len(rounds) == 1, f"--keep-local 1 keeps the newest round only: {rounds}"
    assert uploads[-1]["filename"].startswith(rounds[0] + "-")


def reopen(stub: StubServer, port: int) -> ThreadingHTTPServer:
    """The stub, listening again on the port it had: its requests land in the same list."""
    httpd = ThreadingHTTPServer(("127.0.0.1", port), stub.httpd.RequestHandlerClass)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd


def test_an_unreachable_console_keeps_the_round_until_the_next_run(stub: StubServer, tmp_path: Path) -> None:
    """Nothing listens (connection refused): the round waits in the spool, its directory is kept
    whatever --keep-local says, and the next run (a restarted service) sends it before its own."""
    need_perf()
    port = stub.httpd.server_address[1]
    stub.close()
    out, spool = tmp_path / "rounds", tmp_path / "spool"
    common = [*SHORT, "--rounds", "1", "--server", stub.url, "--keep-local", "0"]
    common += ["--output", str(out), "--spool", str(spool), *FAST]

    first = run_collect(common, env=TOKEN)
    assert first.returncode == 3, first.stderr
    assert "cannot reach" in first.stderr
    first_kinds = kinds_of(round_lines(first.stderr)[0], snapshot=True)
    n = len(first_kinds)
    assert f"uploaded 0 of {n}, {n} wait in the spool" in round_lines(first.stderr)[0]
    assert len(spool_files(spool)) == 2 * n, "a body and a sidecar each"
    (first_round,) = [p.name for p in out.iterdir()]

    httpd = reopen(stub, port)
    try:
        second = run_collect(common, env=TOKEN)
    finally:
        httpd.shutdown()
        httpd.server_close()
    assert second.returncode == 0, second.stderr
    uploads = sent(stub)
    earlier = [u for u in uploads if u["filename"].startswith(first_round + "-")]
    assert sorted(u["kind"] for u in earlier) == first_kinds
    assert uploads[:n] == earlier, "the spooled round goes first"
    line = round_lines(second.stderr)[0]
    m = len(kinds_of(line, snapshot=True))
    assert f"uploaded {m} of {m} and {n} from earlier rounds" in line
    assert spool_files(spool) == []
    assert list(out.iterdir()) == [], "sent rounds are pruned with --keep-local 0"


def perf_records_in(directory: Path) -> list[int]:
    """perf record processes writing into `directory` (a round's), by their command lines."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            argv = Path(f"/proc/{entry}/cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if len(argv) > 1 and argv[1] == b"record" and str(directory).encode() in b" ".join(argv):
            found.append(int(entry))
    return found


def children_of(pid: int) -> list[int]:
    try:
        return [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def recording(directory: Path) -> bool:
    """Has every perf record of the round begun recording, i.e. started its `sleep`?"""
    pids = perf_records_in(directory)
    for pid in pids:
        try:
            if not any(Path(f"/proc/{c}/comm").read_text().strip() == "sleep" for c in children_of(pid)):
                return False
        except OSError:
            return False
    return bool(pids)


def wait_for(condition: Callable[[], bool], proc: subprocess.Popen[str], seconds: float) -> None:
    """Wait until `condition` holds; fail with the collector's messages if it ended meanwhile."""
    deadline = time.monotonic() + seconds
    while not condition() and time.monotonic() < deadline:
        if proc.poll() is not None:
            pytest.fail(f"the watch ended early: {proc.communicate()[1]}")
        time.sleep(0.1)


def test_sigterm_mid_round_sends_what_was_recorded_and_leaves_no_perf(
    stub: StubServer, tmp_path: Path
) -> None:
    need_perf()
    out, spool = tmp_path / "rounds", tmp_path / "spool"
    cmd = [sys.executable, str(zipapp()), "watch", "--interval", "60", "--cpu-seconds", "17"]
    cmd += [
        "--offcpu-seconds",
        "13",
        "--server",
        stub.url,
        "--output",
        str(out),
        "--spool",
        str(spool),
        *FAST,
    ]
    env = {k: v for k, v in os.environ.items() if not k.startswith("STALLSCOPE_")}
    proc = subprocess.Popen(cmd, stderr=subprocess.PIPE, text=True, env={**env, **TOKEN})
    try:
        # The sampler starts right after perf: its file means the round's perf processes exist.
        wait_for(lambda: out.exists() and any(out.glob("*/proc.jsonl")), proc, 60)
        (round_dir,) = [p.parent for p in out.glob("*/proc.jsonl")]
        wait_for(lambda: recording(round_dir), proc, 30)
        time.sleep(1.0)  # a second of samples on every CPU, so the cut round has some to send
        sleepers = [c for pid in perf_records_in(round_dir) for c in children_of(pid)]
        proc.send_signal(signal.SIGTERM)
        _, stderr = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, stderr
    assert perf_records_in(round_dir) == [], "no perf left behind"
    assert sleepers, "perf's `sleep` children were seen"
    assert [pid for pid in sleepers if Path(f"/proc/{pid}").exists()] == [], "nor their `sleep`"
    (line,) = round_lines(stderr)
    assert "cut short by a stop signal" in line
    assert "stopped by SIGTERM after 1 round(s)" in stderr
    assert sorted(u["kind"] for u in sent(stub)) == kinds_of(line, snapshot=True), stderr
    assert spool_files(spool) == []


def test_sigterm_between_rounds_ends_the_watch_at_once(tmp_path: Path) -> None:
    """Most of its time a watch sleeps until its next slot: a stop signal there ends it without
    another round."""
    need_perf()
    cmd = [sys.executable, str(zipapp()), "watch", "--interval", "300", "--cpu-seconds", "1"]
    cmd += ["--offcpu-seconds", "1", "--output", str(tmp_path)]
    env = {k: v for k, v in os.environ.items() if not k.startswith("STALLSCOPE_")}
    proc = subprocess.Popen(cmd, stderr=subprocess.PIPE, text=True, env=env)
    assert proc.stderr is not None
    try:
        seen = []
        for line in proc.stderr:
            seen.append(line)
            if line.startswith("round 1 "):
                break
        assert seen, "no output"
        assert seen[-1].startswith("round 1 "), "".join(seen)
        proc.send_signal(signal.SIGTERM)
        rest = proc.communicate(timeout=120)[1]
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, rest
    assert round_lines(rest) == [], "no second round"
    assert "stopped by SIGTERM after 1 round(s)" in rest


def test_an_interval_the_windows_do_not_fit_in_is_refused(tmp_path: Path) -> None:
    result = run_collect(["watch", "--interval", "5", "--cpu-seconds", "10", "--output", str(tmp_path)])
    assert result.returncode == 2
    assert "--interval 5 s is too short for the windows" in result.stderr
    assert "at least 13 s" in result.stderr
    assert list(tmp_path.iterdir()) == [], "nothing started"


def test_a_server_without_a_token_is_refused(tmp_path: Path) -> None:
    result = run_collect(["watch", "--server", "http://127.0.0.1:9", "--output", str(tmp_path / "w")])
    assert result.returncode == 2
    assert "no upload token" in result.stderr


def test_help_has_the_flags_and_examples() -> None:
    result = run_collect(["watch", "--help"])
    assert result.returncode == 0
    for text in ("--interval", "--cpu-seconds", "--offcpu-seconds", "--rounds", "--keep-local", "systemctl"):
        assert text in result.stdout
    assert "--rounds 2 --interval 60" in result.stdout, "a one-off test run"
    top = run_collect(["--help"])
    assert "watch" in top.stdout


# The pure parts.


def test_rounds_stay_on_the_grid_and_skip_slots_they_missed() -> None:
    schedule = Schedule(300.0, start=1000.0)
    assert schedule.next_slot(0, now=1012.0) == 1, "a round that ended in time: the next slot"
    assert schedule.slot_time(1) == 1300.0
    assert schedule.next_slot(0, now=1303.0) == 1, "a few seconds late: still that slot, late"
    assert schedule.next_slot(0, now=1320.0) == 2, "missed by more: the next slot on the grid"
    assert schedule.next_slot(0, now=1905.0) == 3
    assert schedule.slot_time(3) == 1900.0
    short = Schedule(4.0, start=0.0)
    assert short.next_slot(0, now=4.5) == 2, "the tolerance is a tenth of a short interval"


def snapshot(loadavg: str, swappiness: str, taken_at: int) -> dict[str, Any]:
    return {
        "stallscope": "snapshot",
        "taken_at_ns": taken_at,
        "sections": {
            "system": {"loadavg": loadavg, "uptime": f"{taken_at} 1", "cgroup_version": "2"},
            "vm": {"swappiness": swappiness},
            "kernel_sysctl": {"perf_event_max_sample_rate": str(taken_at), "numa_balancing": "0"},
            "bpf": {"programs": [{"id": 7, "name": "x", "run_cnt": taken_at, "run_time_ns": taken_at}]},
        },
    }


def test_the_snapshot_counts_as_changed_only_for_what_somebody_changed() -> None:
    tracker = SnapshotTracker()
    first = section_hashes(snapshot("0.1", "60", 1))
    assert tracker.changed_sections(first) is None, "nothing sent yet"
    tracker.sent(first)
    assert tracker.changed_sections(section_hashes(snapshot("3.5", "60", 2))) == [], "times and load move"
    assert tracker.changed_sections(section_hashes(snapshot("3.5", "10", 3))) == ["vm"]


def test_pruning_spares_rounds_not_all_sent(tmp_path: Path) -> None:
    root = tmp_path / "rounds"
    spool = Spool(str(tmp_path / "spool"))
    names = ["20250101T000000Z", "20250101T000500Z", "20250101T001000Z", "20250101T001500Z"]
    for name in names:
        (root / name).mkdir(parents=True)
        (root / name / "commands.txt").write_text("")
        (root / name / "proc.jsonl").write_text("{}\n")
    mark_spooled(str(root / names[0]))
    mark_spooled(str(root / names[1]))  # spooled, but still waiting in the spool: kept
    spool.add(str(root / names[1] / "proc.jsonl"), {"filename": "p.gz"}, Console(quiet=True))
    # names[2] was never fully spooled (no mark): kept; names[3] is the newest: kept by --keep-local 1
    (root / "notes").mkdir()
    removed = prune_rounds(str(root), 1, spool)
    assert removed == [str(root / names[0])]
    assert sorted(p.name for p in root.iterdir()) == [*names[1:], "notes"]
    assert (root / names[1] / SPOOLED_MARK).exists()


def test_watch_captures_go_to_the_stream_and_others_to_their_incident() -> None:
    watch = capture_url(
        "https://c.example/",
        {"watch": True, "incident": None, "filename": "a.gz", "host": "h", "kind": "cpu"},
    )
    assert watch.startswith(
        "https://c.example/api/collector/captures?watch=true&filename=a.gz&host=h&kind=cpu"
    )
    incident = capture_url(
        "https://c.example", {"incident": 12, "filename": "a.gz", "host": "h", "kind": "cpu"}
    )
    assert incident.startswith("https://c.example/api/collector/captures?incident=12&filename=a.gz")
