"""Watch mode end to end: the real collector in watch mode on this host, a workload that turns into a
lock convoy halfway, a real console and worker, and a real HTTP receiver for the webhook.

The workload is the lab's lock-convoy program: its fixed variant for the first rounds, then its bad
one. A signature on off-CPU time in `__lll_lock_wait` must raise exactly one alert, after the
switch, naming itself and the host; the receiver must get exactly one POST whose link opens the
evidence; `/api/metrics` must count the windows that matched.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any
from urllib.parse import parse_qs, urlsplit

import pytest
from fastapi.testclient import TestClient
from pytest_httpserver import HTTPServer

from tests.fixtures.collector import build_collector, collector_module
from tests.fixtures.receiver import posted, receiving
from tests.fixtures.worker import wait_parsed

REPO = Path(__file__).resolve().parents[3]
CONVOY_SOURCE = REPO / "lab" / "lock-convoy" / "convoy.c"
HOST = "watch-e2e"
ROUNDS = 3
INTERVAL_S = 5
BAD_FROM_ROUND = 2
"""The workload turns bad between the end of round 1 and the start of round 2."""
SIGNATURE = {
    "name": "convoy on the stats lock",
    "pattern": r"__lll_lock_wait",
    "source": "off-cpu",
    "process": r"^request-",
    "min_ms": 300,
    "cooldown_s": 3600,
}
WAIT_S = 120

# What is checked here (rounds, signatures, alerts, delivery) reads capture digests, not how records
# are stored; digests on TimescaleDB are the findings tests' to check.
pytestmark = pytest.mark.storage_neutral


def _convoy(tmp: Path) -> Path:
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        pytest.skip("no C compiler (cc or gcc) to build the lock-convoy workload")
    binary = tmp / "convoy"
    subprocess.run([compiler, "-O2", "-pthread", "-o", str(binary), str(CONVOY_SOURCE)], check=True)
    return binary


def _start(binary: Path, *args: str) -> subprocess.Popen[str]:
    process = subprocess.Popen(
        [str(binary), *args], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
    )
    assert process.stdout is not None
    assert process.stdout.readline().strip() == "ready"
    return process


def _lines_until(stream: IO[str], start: str) -> str:
    """What the collector printed up to and with the line starting with `start` (a round's line,
    printed once the round is recorded and sent)."""
    seen = []
    for line in stream:
        seen.append(line)
        if line.startswith(start):
            return "".join(seen)
    raise AssertionError("the collector ended before that round:\n" + "".join(seen))


def _stop(process: subprocess.Popen[str]) -> None:
    process.kill()
    process.wait()


@pytest.fixture(scope="module")
def receiver() -> Iterator[HTTPServer]:
    yield from receiving("/alerts")


@pytest.fixture(scope="module")
def watched(
    console_url: str,
    api: TestClient,
    worker: subprocess.Popen[bytes],
    receiver: HTTPServer,
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[dict[str, Any]]:
    """Three watch rounds of this host, the workload bad from the second; every upload parsed."""
    tmp = tmp_path_factory.mktemp("watch-e2e")
    collector = build_collector(tmp)
    perf, why = collector_module(collector, "stallscope_collect.perf.tool").find_perf()
    if perf is None:
        pytest.skip(f"perf is not usable here: {why}")
    binary = _convoy(tmp)
    signature = api.post("/api/signatures", json=SIGNATURE).json()
    hook = api.post(
        "/api/webhooks", json={"name": "e2e receiver", "url": receiver.url_for("/alerts"), "format": "json"}
    ).json()
    token = api.post("/api/tokens", json={"name": "watch end-to-end"}).json()["secret"]
    env = {k: v for k, v in os.environ.items() if not k.startswith("STALLSCOPE_")}
    env["STALLSCOPE_TOKEN"] = token
    env["PYTHONUNBUFFERED"] = "1"  # its round lines as they happen: the switch waits for one
    command = [sys.executable, str(collector), "watch", "--server", console_url, "--host", HOST]
    command += ["--interval", str(INTERVAL_S), "--cpu-seconds", "1", "--offcpu-seconds", "2"]
    command += ["--rounds", str(ROUNDS), "--output", str(tmp / "out"), "--spool", str(tmp / "spool")]
    workload = _start(binary, "fixed", "2")
    try:
        watch = subprocess.Popen(
            command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env
        )
        assert watch.stdout is not None
        before = _lines_until(watch.stdout, f"round {BAD_FROM_ROUND - 1} at")  # its windows are over
        _stop(workload)
        workload = _start(binary, "bad")
        rest, _ = watch.communicate(timeout=INTERVAL_S * ROUNDS + 120)
        output = before + rest
    finally:
        _stop(workload)
    assert watch.returncode == 0, f"watch failed:\n{output}"
    streams = {s["host"]: s for s in api.get("/api/watch/streams").json()}
    captures = api.get(f"/api/incidents/{streams[HOST]['id']}/captures").json()
    parsed = [wait_parsed(api, c["id"]) for c in captures]
    yield {"signature": signature, "captures": parsed, "output": output, "stream": streams[HOST]["id"]}
    api.delete(f"/api/signatures/{signature['id']}")
    api.delete(f"/api/webhooks/{hook['id']}")


def _settled(api: TestClient) -> list[dict[str, Any]]:
    """The alerts of this test's signature once none has a delivery left to try."""
    deadline = time.monotonic() + WAIT_S
    while True:
        alerts = [a for a in api.get("/api/alerts").json() if a["signature"] == SIGNATURE["name"]]
        if alerts and all(d["status"] != "pending" for a in alerts for d in a["deliveries"]):
            return alerts
        assert time.monotonic() < deadline, f"no alert settled: {alerts}"
        time.sleep(0.5)


def test_the_collector_uploaded_every_round_to_the_hosts_stream(watched: dict[str, Any]) -> None:
    rounds = {c["meta"]["watch"]["round"] for c in watched["captures"]}
    assert rounds == set(range(1, ROUNDS + 1)), watched["output"]
    kinds = {c["kind"] for c in watched["captures"]}
    assert {"cpu", "offcpu"} <= kinds, kinds
    assert all(c["status"] in {"ready", "partial", "empty"} for c in watched["captures"])


def test_exactly_one_alert_reaches_the_receiver_after_the_switch(
    api: TestClient, watched: dict[str, Any], receiver: HTTPServer
) -> None:
    [alert] = _settled(api)
    assert alert["host"] == HOST
    by_id = {c["id"]: c for c in watched["captures"]}
    assert by_id[alert["first_capture_id"]]["meta"]["watch"]["round"] >= BAD_FROM_ROUND
    assert alert["matched_ns"] >= SIGNATURE["min_ms"] * 1_000_000

    posts = posted(receiver, "/alerts")
    assert len(posts) == 1
    [sent] = posts
    assert sent["alert"]["signature"] == SIGNATURE["name"]
    assert sent["alert"]["host"] == HOST
    assert SIGNATURE["name"] in sent["summary"]
    assert HOST in sent["summary"]

    query = {k: v[0] for k, v in parse_qs(urlsplit(sent["links"]["evidence"]).query).items()}
    assert query["incident"] == str(watched["stream"])
    flame = api.get("/api/flame", params={"captures": query["captures"], "source": query["source"]})
    assert flame.status_code == 200, flame.text
    assert query["q"] in flame.text  # the matched frame the link searches for is in that graph

    metrics = api.get("/metrics", headers={"Accept": "text/plain"}).text.splitlines()  # as Prometheus asks
    line = f'stallscope_signature_matches_total{{signature="{SIGNATURE["name"]}",host="{HOST}"}}'
    [counted] = [m for m in metrics if m.startswith(line + " ")]
    assert int(counted.split()[-1]) == alert["matches"] >= 1
