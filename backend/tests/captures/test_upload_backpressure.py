"""Back-pressure on uploads: past the cap on uploads in flight 503, past a credential's rate 429,
both with Retry-After and before a byte of the body is stored; the queue and the gate are visible
in `/api/health` and the metrics exposition."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import httpx
import pytest
import uvicorn
from fastapi import FastAPI
from fastapi.testclient import TestClient

from stallscope.captures.backpressure import UploadGate
from stallscope.kit.errors import TooManyRequests, Unavailable
from stallscope.main import create_app
from tests.fixtures.db import Conn
from tests.fixtures.factories import make_incident
from tests.fixtures.people import bearer
from tests.fixtures.processes import free_port

pytestmark = pytest.mark.storage_neutral  # the gate acts before anything is stored

CAPTURE = b"svc 42/42 [001] 10.000100: 1000 cpu-clock:\n\t    1111 handle (/usr/bin/svc)\n\n"


def test_the_gate_refuses_past_its_cap_until_a_slot_is_released() -> None:
    gate = UploadGate(max_in_flight=2, per_minute=1000, busy_retry_after_s=7)
    gate.admit("a", now=0)
    gate.admit("b", now=0)
    with pytest.raises(Unavailable, match="2 uploads at once") as refused:
        gate.admit("c", now=0)
    assert refused.value.retry_after_s == 7
    gate.release()
    gate.admit("c", now=0)
    assert (gate.counters.in_flight, gate.counters.accepted, gate.counters.refused_busy) == (2, 3, 1)


def test_a_credential_gets_a_minutes_burst_then_its_rate() -> None:
    gate = UploadGate(max_in_flight=100, per_minute=6, busy_retry_after_s=5)  # one every 10 s
    for _ in range(6):
        gate.admit("collector token 'web-1'", now=100.0)
        gate.release()
    with pytest.raises(TooManyRequests, match="more than 6 uploads a minute") as refused:
        gate.admit("collector token 'web-1'", now=100.0)
    assert refused.value.retry_after_s == 10
    gate.admit("collector token 'web-2'", now=100.0)  # another credential has its own bucket
    gate.release()
    with pytest.raises(TooManyRequests) as sooner:
        gate.admit("collector token 'web-1'", now=107.5)
    assert sooner.value.retry_after_s == 3, "2.5 s left, rounded up"
    gate.admit("collector token 'web-1'", now=110.0)
    assert gate.counters.refused_rate == 2


@pytest.fixture
def gated_app(database_url: str) -> FastAPI:
    app = create_app()
    app.state.upload_gate = UploadGate(max_in_flight=1, per_minute=2, busy_retry_after_s=4)
    return app


def upload(client: TestClient | httpx.Client, incident: int, body: bytes | Iterator[bytes]) -> httpx.Response:
    return client.post(
        "/api/collector/captures",
        params={"incident": incident, "filename": "svc.txt", "host": "web-1"},
        content=body,
        headers={"Content-Type": "application/octet-stream"},
    )


def test_past_its_rate_a_token_is_told_when_to_come_back(
    gated_app: FastAPI, api: TestClient, admin_token: str
) -> None:
    incident = make_incident(api)["id"]
    headers = {"X-Requested-With": "stallscope", **bearer(admin_token)}
    with TestClient(gated_app, base_url="http://localhost", headers=headers) as client:
        answers = [upload(client, incident, CAPTURE) for _ in range(3)]
    assert [a.status_code for a in answers] == [202, 202, 429]
    assert int(answers[2].headers["Retry-After"]) == 30
    assert "send it again in 30 s" in answers[2].json()["detail"]
    assert len(api.get(f"/api/incidents/{incident}/captures").json()) == 2


def test_past_the_cap_an_upload_is_refused_before_its_body_is_read(
    gated_app: FastAPI, api: TestClient, admin_token: str
) -> None:
    incident = make_incident(api)["id"]
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(gated_app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.05)
    release = threading.Event()
    first: list[httpx.Response] = []

    def slow_body() -> Iterator[bytes]:
        yield CAPTURE[:10]
        release.wait(30)
        yield CAPTURE[10:]

    headers = bearer(admin_token)
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30, headers=headers) as client:
            sender = threading.Thread(target=lambda: first.append(upload(client, incident, slow_body())))
            sender.start()
            with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30, headers=headers) as other:
                deadline = time.monotonic() + 30
                while (health := other.get("/api/health").json())["queue"]["uploads_in_flight"] == 0:
                    assert time.monotonic() < deadline, health
                    time.sleep(0.05)
                refused = upload(other, incident, CAPTURE)
                scraped = other.get("/metrics", headers={"Accept": "text/plain"}).text
            release.set()
            sender.join(30)
    finally:
        server.should_exit = True
        thread.join(10)
    assert refused.status_code == 503
    assert refused.headers["Retry-After"] == "4"
    assert "STALLSCOPE_MAX_CONCURRENT_UPLOADS" in refused.json()["detail"]
    assert first[0].status_code == 202
    assert "stallscope_uploads_in_flight 1" in scraped.splitlines()
    assert 'stallscope_uploads_total{outcome="refused_busy"} 1' in scraped.splitlines()


def test_health_and_the_exposition_show_the_parse_queue(api: TestClient, db: Conn) -> None:
    incident = make_incident(api)["id"]
    capture = upload(api, incident, CAPTURE).json()["id"]
    # As if it had waited an hour behind a storm (no message is sent: nothing parses it meanwhile).
    db.execute(
        "UPDATE captures SET status = 'queued', queued_at = now() - interval '1 hour' WHERE id = %s",
        (capture,),
    )
    try:
        queue = api.get("/api/health").json()["queue"]
        lines = api.get("/api/metrics").text.splitlines()
    finally:
        api.delete(f"/api/captures/{capture}")  # to the trash: out of the queue for the other tests
    assert queue["queued"] >= 1
    assert queue["oldest_queued_s"] >= 3600
    assert isinstance(queue["broker_messages"], int)
    assert "# TYPE stallscope_parse_lag_seconds gauge" in lines
    lag = next(line for line in lines if line.startswith("stallscope_parse_lag_seconds "))
    assert float(lag.split()[1]) >= 3600
    waiting = next(line for line in lines if line.startswith('stallscope_captures_waiting{state="queued"} '))
    assert int(waiting.split()[1]) >= 1


def test_metrics_is_the_exposition_for_scrapers_and_the_view_for_browsers(api: TestClient) -> None:
    scraped = api.get(
        "/metrics", headers={"Accept": "application/openmetrics-text;version=1.0.0,text/plain;q=0.5"}
    )
    assert scraped.status_code == 200
    assert scraped.headers["content-type"].startswith("text/plain; version=0.0.4")
    browsed = api.get("/metrics", headers={"Accept": "text/html,application/xhtml+xml,*/*;q=0.8"})
    assert "stallscope_uploads_in_flight" not in browsed.text
