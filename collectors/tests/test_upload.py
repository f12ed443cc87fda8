"""Uploads against a stub of the collector endpoint: protocol, retries, the spool, flush."""

from __future__ import annotations

import gzip
import json
import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from stallscope_collect.perf.permissions import perf_privileged, permission_problems, read_paranoid
from stallscope_collect.perf.tool import find_perf

from .conftest import StubServer, run_collect

FAST = ["--retries", "2", "--retry-delay", "0.01", "--timeout", "5"]


def token_env(token: str = "s3cret-token") -> dict[str, str]:
    return {"STALLSCOPE_TOKEN": token}


def spool_files(spool: Path) -> list[str]:
    return sorted(p.name for p in spool.iterdir() if not p.name.startswith(".")) if spool.exists() else []


def dead_server_url() -> str:
    """A local port with nothing listening: connections are refused at once."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}"


@pytest.fixture
def capture_file(tmp_path: Path) -> Path:
    path = tmp_path / "cpu.perf.txt"
    path.write_text("swapper     0 [000]  3729.865295:   20408163 cpu-clock:pppH: \n\tffff f ([k])\n\n" * 500)
    return path


def test_upload_protocol(stub: StubServer, tmp_path: Path, capture_file: Path) -> None:
    clock = {"perf_clock": "monotonic", "anchors": [{"monotonic_ns": 1, "realtime_ns": 2}] * 2}
    clock_file = tmp_path / "clock.json"
    clock_file.write_text(json.dumps(clock))
    spool = tmp_path / "spool"
    result = run_collect(
        [
            "upload",
            str(capture_file),
            "--server",
            stub.url + "/",
            "--incident",
            "7",
            "--kind",
            "cpu",
            "--host",
            "db-7",
            "--clock",
            str(clock_file),
            "--spool",
            str(spool),
            *FAST,
        ],
        env=token_env(),
    )
    assert result.returncode == 0, result.stderr
    assert len(stub.requests) == 1
    req = stub.requests[0]
    assert req["path"] == "/api/collector/captures"
    q = req["query"]
    assert (q["incident"], q["filename"], q["host"], q["kind"]) == ("7", "cpu.perf.txt.gz", "db-7", "cpu")
    assert json.loads(q["clock"]) == clock
    meta = json.loads(q["meta"])
    assert meta["collector"].startswith("stallscope-collect ")
    assert meta["kind"] == "cpu"
    assert meta["commands"] == []
    assert meta["target_pids"] == []
    assert req["headers"]["authorization"] == "Bearer s3cret-token"
    assert req["headers"]["content-type"] == "application/octet-stream"
    assert re.fullmatch(r"[0-9a-f]{32}", req["headers"]["idempotency-key"]), "the capture's upload key"
    assert gzip.decompress(req["body"]) == capture_file.read_bytes()
    assert spool_files(spool) == [], "sent captures leave the spool"
    assert "uploaded cpu.perf.txt.gz" in result.stderr
    assert "\r" not in result.stderr, "no terminal control characters when stderr is not a terminal"


def test_gzip_files_are_sent_as_they_are(stub: StubServer, tmp_path: Path) -> None:
    path = tmp_path / "offcpu.txt.gz"
    raw = b"some text\n" * 100
    path.write_bytes(gzip.compress(raw))
    result = run_collect(
        [
            "upload",
            str(path),
            "--server",
            stub.url,
            "--incident",
            "1",
            "--kind",
            "offcpu",
            "--spool",
            str(tmp_path / "spool"),
            *FAST,
        ],
        env=token_env(),
    )
    assert result.returncode == 0, result.stderr
    req = stub.requests[0]
    assert req["query"]["filename"] == "offcpu.txt.gz"
    assert "clock" not in req["query"]
    assert req["body"] == path.read_bytes()


def test_token_file(stub: StubServer, tmp_path: Path, capture_file: Path) -> None:
    token = tmp_path / "token"
    token.write_text("from-a-file\n")
    token.chmod(0o600)
    result = run_collect(
        [
            "upload",
            str(capture_file),
            "--server",
            stub.url,
            "--incident",
            "1",
            "--kind",
            "cpu",
            "--token-file",
            str(token),
            "--spool",
            str(tmp_path / "spool"),
            *FAST,
        ],
    )
    assert result.returncode == 0, result.stderr
    assert stub.requests[0]["headers"]["authorization"] == "Bearer from-a-file"


def test_5xx_is_retried(stub: StubServer, tmp_path: Path, capture_file: Path) -> None:
    stub.responses = [(500, {"detail": "boom"}), (503, {"detail": "busy"})]
    result = run_collect(
        [
            "upload",
            str(capture_file),
            "--server",
            stub.url,
            "--incident",
            "1",
            "--kind",
            "cpu",
            "--spool",
            str(tmp_path / "spool"),
            *FAST,
        ],
        env=token_env(),
    )
    assert result.returncode == 0, result.stderr
    assert len(stub.requests) == 3
    assert "retry 1 of 2" in result.stderr
    assert "retry 2 of 2" in result.stderr
    bodies = {bytes(r["body"]) for r in stub.requests}
    assert len(bodies) == 1, "every attempt sends the whole body again"
    keys = {r["headers"]["idempotency-key"] for r in stub.requests}
    assert len(keys) == 1, "and the same upload key"


@pytest.mark.parametrize(
    ("status", "detail"),
    [(401, "upload token revoked"), (404, "no incident 99"), (413, "capture too large: limit 2 GiB")],
)
def test_4xx_is_not_retried_and_stays_spooled(
    stub: StubServer, tmp_path: Path, capture_file: Path, status: int, detail: str
) -> None:
    stub.responses = [(status, {"detail": detail})]
    spool = tmp_path / "spool"
    result = run_collect(
        [
            "upload",
            str(capture_file),
            "--server",
            stub.url,
            "--incident",
            "99",
            "--kind",
            "cpu",
            "--spool",
            str(spool),
            *FAST,
        ],
        env=token_env(),
    )
    assert result.returncode == 3
    assert len(stub.requests) == 1
    assert f"HTTP {status}: {detail}" in result.stderr
    files = spool_files(spool)
    assert len(files) == 2
    assert files[0].endswith(".gz")
    assert files[1].endswith(".json")
    sidecar = json.loads((spool / files[1]).read_text())
    assert sidecar["last_error"] == f"HTTP {status}: {detail}"
    assert "token" not in json.dumps(sidecar).lower().replace("upload token revoked", "")


def test_redirect_is_reported_not_followed(stub: StubServer, tmp_path: Path, capture_file: Path) -> None:
    stub.responses = [(308, {})]
    result = run_collect(
        [
            "upload",
            str(capture_file),
            "--server",
            stub.url,
            "--incident",
            "1",
            "--kind",
            "cpu",
            "--spool",
            str(tmp_path / "spool"),
            *FAST,
        ],
        env=token_env(),
    )
    assert result.returncode == 3
    assert len(stub.requests) == 1
    assert "redirects to https://elsewhere.example/; pass that as --server" in result.stderr


def test_missing_token_keeps_the_capture(stub: StubServer, tmp_path: Path, capture_file: Path) -> None:
    spool = tmp_path / "spool"
    result = run_collect(
        [
            "upload",
            str(capture_file),
            "--server",
            stub.url,
            "--incident",
            "1",
            "--kind",
            "cpu",
            "--spool",
            str(spool),
            *FAST,
        ],
    )
    assert result.returncode == 3
    assert "STALLSCOPE_TOKEN" in result.stderr
    assert stub.requests == []
    assert len(spool_files(spool)) == 2


def test_unreachable_server_spools_and_flush_sends_later(
    stub: StubServer, tmp_path: Path, capture_file: Path
) -> None:
    spool = tmp_path / "spool"
    dead = dead_server_url()
    result = run_collect(
        [
            "upload",
            str(capture_file),
            "--server",
            dead,
            "--incident",
            "5",
            "--kind",
            "cpu",
            "--host",
            "h1",
            "--spool",
            str(spool),
            *FAST,
        ],
        env=token_env(),
    )
    assert result.returncode == 3, result.stderr
    assert "cannot reach" in result.stderr
    assert "retry 2 of 2" in result.stderr
    assert "kept in the spool" in result.stderr
    files = spool_files(spool)
    assert len(files) == 2
    sidecar = json.loads((spool / files[1]).read_text())
    assert sidecar["server"] == dead
    assert sidecar["incident"] == 5
    assert sidecar["kind"] == "cpu"

    # Still down: flush keeps it.
    result = run_collect(["flush", "--spool", str(spool), *FAST], env=token_env())
    assert result.returncode == 3
    assert len(spool_files(spool)) == 2

    # Back (somewhere else): flush --server sends it with its own incident, host and kind.
    result = run_collect(["flush", "--server", stub.url, "--spool", str(spool), *FAST], env=token_env())
    assert result.returncode == 0, result.stderr
    assert spool_files(spool) == []
    q = stub.requests[0]["query"]
    assert (q["incident"], q["host"], q["kind"]) == ("5", "h1", "cpu")
    assert gzip.decompress(stub.requests[0]["body"]) == capture_file.read_bytes()

    result = run_collect(["flush", "--spool", str(spool)], env=token_env())
    assert result.returncode == 0
    assert "empty" in result.stderr


def test_flush_ignores_and_cleans_leftovers_of_a_killed_run(
    stub: StubServer, tmp_path: Path, capture_file: Path
) -> None:
    spool = tmp_path / "spool"
    result = run_collect(
        [
            "upload",
            str(capture_file),
            "--server",
            dead_server_url(),
            "--incident",
            "5",
            "--kind",
            "cpu",
            "--spool",
            str(spool),
            "--retries",
            "0",
        ],
        env=token_env(),
    )
    assert result.returncode == 3
    # What a kill can leave: a half-written temporary file and a body whose sidecar was never written.
    (spool / ".tmp-abc123").write_bytes(b"\x1f\x8b half")
    orphan = spool / "123-456-orphan.txt.gz"
    orphan.write_bytes(gzip.compress(b"x"))
    fresh_orphan = spool / "124-456-recent.txt.gz"
    fresh_orphan.write_bytes(gzip.compress(b"y"))
    old = time.time() - 7200
    os.utime(spool / ".tmp-abc123", (old, old))
    os.utime(orphan, (old, old))

    result = run_collect(["flush", "--server", stub.url, "--spool", str(spool), *FAST], env=token_env())
    assert result.returncode == 0, result.stderr
    assert len(stub.requests) == 1
    assert not (spool / ".tmp-abc123").exists()
    assert not orphan.exists()
    assert fresh_orphan.exists(), "a recent orphan may belong to a run still writing its sidecar"


def test_record_uploads_and_sends_older_spooled_captures(
    stub: StubServer, tmp_path: Path, capture_file: Path
) -> None:
    spool = tmp_path / "spool"
    result = run_collect(
        [
            "upload",
            str(capture_file),
            "--server",
            dead_server_url(),
            "--incident",
            "3",
            "--kind",
            "cpu",
            "--spool",
            str(spool),
            "--retries",
            "0",
        ],
        env=token_env(),
    )
    assert result.returncode == 3

    outdir = tmp_path / "rec"
    result = run_collect(
        [
            "record",
            "--no-perf",
            "--pid",
            str(os.getpid()),
            "--duration",
            "1",
            "--server",
            stub.url,
            "--incident",
            "3",
            "--host",
            "web-1",
            "--output",
            str(outdir),
            "--spool",
            str(spool),
            *FAST,
        ],
        env=token_env(),
    )
    # The older capture still names the dead server, so it stays; the new ones go through.
    assert result.returncode == 3, result.stderr
    kinds = sorted(r["query"]["kind"] for r in stub.requests)
    assert kinds == ["proc", "snapshot"]
    for req in stub.requests:
        q = req["query"]
        assert q["incident"] == "3"
        assert q["host"] == "web-1"
        assert "clock" not in q, "proc and snapshot times are already wall-clock"
        assert q["filename"].startswith("rec-")
        assert q["filename"].endswith(".gz")
        meta = json.loads(q["meta"])
        assert meta["kind"] == q["kind"]
        assert meta["target_pids"] == [os.getpid()]
        body = gzip.decompress(req["body"])
        name = "proc.jsonl" if q["kind"] == "proc" else "snapshot.json"
        assert body == (outdir / name).read_bytes()
    assert len(spool_files(spool)) == 2

    result = run_collect(["flush", "--server", stub.url, "--spool", str(spool), *FAST], env=token_env())
    assert result.returncode == 0
    assert sorted(r["query"]["kind"] for r in stub.requests) == ["cpu", "proc", "snapshot"]


def test_record_with_perf_sends_clock_and_commands(stub: StubServer, tmp_path: Path) -> None:
    perf, why = find_perf()
    if perf is None:
        pytest.skip(why)
    refused, _ = permission_problems(["cpu"], False, read_paranoid(), perf_privileged())
    if refused:
        pytest.skip(refused["cpu"])
    busy = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        result = run_collect(
            [
                "record",
                "--cpu",
                "--no-snapshot",
                "--no-proc",
                "--pid",
                str(busy.pid),
                "--duration",
                "1",
                "--server",
                stub.url,
                "--incident",
                "4",
                "--output",
                str(tmp_path / "rec"),
                "--spool",
                str(tmp_path / "spool"),
                *FAST,
            ],
            env=token_env(),
        )
    finally:
        busy.kill()
        busy.wait()
    assert result.returncode == 0, result.stderr
    (req,) = stub.requests
    clock = json.loads(req["query"]["clock"])
    assert clock["perf_clock"] in ("monotonic", "default")
    assert len(clock["anchors"]) == 2
    meta = json.loads(req["query"]["meta"])
    assert meta["commands"][0].split()[1:3] == ["record", "-k"] or meta["commands"][0].split()[1] == "record"
    assert any(" script -i " in c for c in meta["commands"])
    assert meta["perf_version"].startswith("perf version")
