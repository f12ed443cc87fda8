"""Watch mode through the real worker and a real HTTP receiver: a host's watch uploads go to its
stream, a signature matching the bad run raises one alert, sent once to each webhook in its shape
with a link to the evidence (the Alertmanager's shape checked against its own API schema); a second
match within the cool-down joins it and sends nothing; `/api/metrics` counts both; an incident opens
from the alert with the matching captures."""

from __future__ import annotations

import json
import subprocess
import time
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from fastapi.testclient import TestClient
from jsonschema import Draft4Validator
from pytest_httpserver import HTTPServer

from tests.analysis.findings.lab import variant
from tests.fixtures.alertmanager_api import FIELDS, postable_alerts_schema
from tests.fixtures.db import Conn
from tests.fixtures.receiver import posted, receiving
from tests.fixtures.worker import wait_parsed

WAIT_S = 60

# Signatures, alerts and deliveries read capture digests, not how records are stored; digests on
# TimescaleDB are the findings tests' to check.
pytestmark = pytest.mark.storage_neutral
DETECTOR = {"name": "convoy detector", "pattern": "^lock-convoy$", "source": "finding", "cooldown_s": 3600}
SIGNATURE = {
    "name": "lock convoy",
    "pattern": r"__lll_lock_wait",
    "source": "off-cpu",
    "min_share": 0.1,
    "cooldown_s": 3600,
}


def _watch_upload(api: TestClient, path: Path, host: str) -> int:
    response = api.post(
        "/api/collector/captures",
        params={"watch": "true", "host": host, "filename": path.name},
        content=path.read_bytes(),
        headers={"Content-Type": "application/octet-stream"},
    )
    assert response.status_code == 202, response.text
    capture_id: int = response.json()["id"]
    assert wait_parsed(api, capture_id)["status"] in {"ready", "partial", "empty"}  # a run may trace nothing
    return capture_id


def _is_what_an_alertmanager_accepts(body: Any) -> None:
    """Valid against the Alertmanager's own schema of `POST /api/v2/alerts`, with no field it does
    not know, times in RFC 3339 and links absolute."""
    Draft4Validator(postable_alerts_schema()).validate(body)
    for alert in body:
        assert set(alert) <= FIELDS, set(alert) - FIELDS
        assert datetime.fromisoformat(alert["startsAt"]).tzinfo is not None
        assert urlsplit(alert["generatorURL"]).scheme in {"http", "https"}


def _alerts(api: TestClient, settled: Any) -> list[dict[str, Any]]:
    """The alerts once `settled(alerts)` holds (the worker sends after the parse)."""
    deadline = time.monotonic() + WAIT_S
    while True:
        alerts: list[dict[str, Any]] = api.get("/api/alerts").json()
        if settled(alerts):
            return alerts
        assert time.monotonic() < deadline, f"alerts never settled: {alerts}"
        time.sleep(0.2)


def _sent(found: list[dict[str, Any]]) -> bool:
    """Both signatures' alerts raised, and every delivery tried."""
    return len(found) == 2 and all(d["status"] != "pending" for a in found for d in a["deliveries"])


def _by_signature(alerts: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {a["signature"]: a for a in alerts}


@pytest.fixture(scope="module")
def receiver() -> Iterator[HTTPServer]:
    yield from receiving("/hook", "/alertmanager/api/v2/alerts")


@pytest.fixture(scope="module")
def watched(
    api: TestClient, worker: subprocess.Popen[bytes], receiver: HTTPServer
) -> Iterator[dict[str, Any]]:
    """A signature and two webhooks, then the bad run's files as host db-7's watch uploads and the
    fixed run's as db-8's; removed afterwards (other tests share the console)."""
    signature = api.post("/api/signatures", json=SIGNATURE)
    assert signature.status_code == 201, signature.text
    detector = api.post("/api/signatures", json=DETECTOR)
    assert detector.status_code == 201, detector.text
    hooks = [
        api.post(
            "/api/webhooks", json={"name": "ops json", "url": receiver.url_for("/hook"), "format": "json"}
        ),
        api.post(
            "/api/webhooks",
            json={
                "name": "alertmanager",
                "url": receiver.url_for("/alertmanager/api/v2/alerts"),
                "format": "alertmanager",
            },
        ),
    ]
    assert all(h.status_code == 201 for h in hooks), [h.text for h in hooks]
    offcpu = {}
    for host, run in (("db-7", "bad"), ("db-8", "fixed")):
        for path in sorted(variant("lock-convoy", run).iterdir()):
            if path.name.endswith((".gz", ".json")):
                capture_id = _watch_upload(api, path, host)
                if path.name.startswith("offcpu"):
                    offcpu[host] = capture_id
    yield {"signature": signature.json(), "offcpu": offcpu}
    for rule in (signature, detector):
        api.delete(f"/api/signatures/{rule.json()['id']}")
    for hook in hooks:
        api.delete(f"/api/webhooks/{hook.json()['id']}")


def test_one_alert_sent_once_to_each_webhook_with_a_working_link(
    api: TestClient, watched: dict[str, Any], receiver: HTTPServer
) -> None:
    alerts = _alerts(api, _sent)
    pairs = sorted((a["signature"], a["host"]) for a in alerts)
    assert pairs == [("convoy detector", "db-7"), ("lock convoy", "db-7")]  # not the fixed db-8
    alert = _by_signature(alerts)["lock convoy"]
    assert alert["last_capture_id"] == watched["offcpu"]["db-7"]
    assert {d["webhook"]: d["status"] for d in alert["deliveries"]} == {
        "ops json": "sent",
        "alertmanager": "sent",
    }
    assert alert["share"] >= SIGNATURE["min_share"]

    posts = {post["alert"]["signature"]: post for post in posted(receiver, "/hook")}
    assert len(posted(receiver, "/hook")) == len(posts) == 2  # one per alert
    own = posts["lock convoy"]
    assert own["alert"]["host"] == "db-7"
    assert "lock convoy" in own["summary"]
    assert "db-7" in own["summary"]
    managed = [alert for body in posted(receiver, "/alertmanager/api/v2/alerts") for alert in body]
    assert len(managed) == 2
    [manager] = [m for m in managed if m["labels"]["signature"] == "lock convoy"]
    assert manager["labels"] == {
        "alertname": "StallscopeSignature",
        "signature": "lock convoy",
        "host": "db-7",
        "source": "off-cpu",
        "severity": "warning",
    }
    assert manager["generatorURL"] == own["links"]["evidence"] == alert["evidence_url"]
    for body in posted(receiver, "/alertmanager/api/v2/alerts"):
        _is_what_an_alertmanager_accepts(body)

    link = urlsplit(own["links"]["evidence"])
    assert link.path == "/flame"
    query = {k: v[0] for k, v in parse_qs(link.query).items()}
    assert query["incident"] == str(alert["stream_id"])
    assert query["captures"] == str(alert["last_capture_id"])
    flame = api.get("/api/flame", params={"captures": query["captures"], "source": query["source"]})
    assert flame.status_code == 200, flame.text
    assert json.dumps(query["q"])[1:-1] in flame.text  # the frame the link searches for is in the graph

    detector = posts["convoy detector"]
    assert [f["id"] for f in detector["alert"]["evidence"]["findings"]] == ["lock-convoy"]
    assert "convoy detector" in detector["summary"]
    assert "Lock convoy" in detector["summary"] or "lock convoy" in detector["summary"].lower()


def test_a_match_within_the_cool_down_joins_the_alert_and_sends_nothing(
    api: TestClient, watched: dict[str, Any], receiver: HTTPServer
) -> None:
    _alerts(api, _sent)
    again = _watch_upload(api, variant("lock-convoy", "bad") / "offcpu.perf.txt.gz", "db-7")
    alerts = _alerts(api, lambda found: len(found) == 2 and all(a["matches"] == 2 for a in found))
    assert {a["last_capture_id"] for a in alerts} == {again}
    time.sleep(1)  # a second POST, were one sent, would be queued right after the parse
    assert len(posted(receiver, "/hook")) == 2

    metrics = api.get("/api/metrics")
    assert metrics.status_code == 200
    assert metrics.headers["content-type"].startswith("text/plain")
    lines = metrics.text.splitlines()
    assert 'stallscope_signature_matches_total{signature="lock convoy",host="db-7"} 2' in lines
    assert 'stallscope_signature_matches_total{signature="convoy detector",host="db-7"} 2' in lines
    assert 'stallscope_signatures{enabled="true"} 2' in lines


def test_streams_stay_out_of_the_incident_list(api: TestClient, watched: dict[str, Any], db: Conn) -> None:
    streams = {s["host"]: s for s in api.get("/api/watch/streams").json()}
    assert set(streams) >= {"db-7", "db-8"}
    listed = {i["id"] for i in api.get("/api/incidents").json()}
    assert not listed & {s["id"] for s in streams.values()}
    stream = api.get(f"/api/incidents/{streams['db-7']['id']}").json()
    assert stream["watch_host"] == "db-7"
    # Each window is checked on its own: the stream's findings are not recomputed at every upload.
    ids = [streams[host]["id"] for host in ("db-7", "db-8")]  # this module's: others may be opened
    assert db.execute(
        "SELECT count(*) FROM incident_findings WHERE incident_id = ANY(%s)", (ids,)
    ).fetchone() == (0,)
    digested = db.execute(
        "SELECT count(*) FROM capture_digests d JOIN captures c ON c.id = d.capture_id "
        "WHERE c.incident_id = ANY(%s)",
        (ids,),
    ).fetchone()
    assert digested is not None
    assert digested[0] > 0


def _day_before(api: TestClient, host: str, matched: dict[str, Any]) -> int:
    """The fixed run's off-CPU file as the host's watch round from the day before the match: moved on
    the wall clock so it ends a day (less five minutes) before the matching capture does."""
    quiet = _watch_upload(api, variant("lock-convoy", "fixed") / "offcpu.perf.txt.gz", host)
    ends = [
        datetime.fromisoformat(c["time_end"]) for c in (api.get(f"/api/captures/{quiet}").json(), matched)
    ]
    shift = (ends[1] - timedelta(days=1) + timedelta(minutes=5) - ends[0]).total_seconds()
    moved = api.post(f"/api/captures/{quiet}/shift", json={"shift": f"{shift:+.6f}s"})
    assert moved.status_code == 202, moved.text
    assert wait_parsed(api, quiet)["status"] in {"ready", "partial"}
    return quiet


def _findings(api: TestClient, incident_id: int) -> dict[str, Any]:
    deadline = time.monotonic() + WAIT_S
    while True:
        body: dict[str, Any] = api.get(f"/api/incidents/{incident_id}/findings").json()
        if body["state"] == "ready" and body["captures_pending"] == 0:
            return body
        assert time.monotonic() < deadline, f"findings not ready: {body['state']}"
        time.sleep(0.2)


def test_an_incident_opens_from_the_alert_against_the_day_before(
    api: TestClient, watched: dict[str, Any]
) -> None:
    alert = _by_signature(_alerts(api, _sent))["lock convoy"]
    matched = api.get(f"/api/captures/{alert['last_capture_id']}").json()
    _day_before(api, "db-7", matched)
    opened = api.post(f"/api/alerts/{alert['id']}/incident")
    assert opened.status_code == 200, opened.text
    body = opened.json()
    assert body["captures"]
    assert len(body["baseline_captures"]) == 1
    assert body["baseline_host"] == "db-7 (day before)"
    for capture_id in body["captures"] + body["baseline_captures"]:
        assert wait_parsed(api, capture_id)["status"] in {"ready", "partial"}
    incident = api.get(f"/api/incidents/{body['incident_id']}").json()
    assert incident["title"] == "lock convoy on db-7"
    assert incident["watch_host"] is None
    assert body["incident_id"] in {i["id"] for i in api.get("/api/incidents").json()}

    diff = {k: v[0] for k, v in parse_qs(urlsplit(body["diff_url"]).query).items()}
    assert diff["a.captures"] == str(body["baseline_captures"][0])
    assert diff["b.captures"] == ",".join(map(str, body["captures"]))
    answer = api.get(
        "/api/diff", params={k: v for k, v in diff.items() if k.startswith(("a.", "b.", "source"))}
    )
    assert answer.status_code == 200, answer.text
    assert answer.json()["b"]["total"] > answer.json()["a"]["total"] > 0

    findings = _findings(api, body["incident_id"])
    assert findings["baseline_hosts"] == ["db-7 (day before)"]
    convoy = [f for f in findings["findings"] if f["id"] == "lock-convoy"]
    assert convoy, [f["id"] for f in findings["findings"]]
    assert "db-7" in convoy[0]["hosts"]
    assert api.post(f"/api/alerts/{alert['id']}/incident").json()["incident_id"] == body["incident_id"]


def test_a_watch_upload_needs_its_host_and_one_destination(api: TestClient) -> None:
    both = api.post(
        "/api/collector/captures", params={"watch": "true", "incident": "1", "filename": "x"}, content=b""
    )
    assert both.status_code == 422
    assert "either incident" in both.text
    hostless = api.post("/api/collector/captures", params={"watch": "true", "filename": "x"}, content=b"")
    assert hostless.status_code == 422
    assert "host" in hostless.text


def test_a_signature_that_cannot_be_evaluated_is_refused(api: TestClient) -> None:
    refused = api.post("/api/signatures", json=SIGNATURE | {"name": "bad", "pattern": "(unclosed"})
    assert refused.status_code == 422
    assert "not a regular expression" in refused.text


def test_metrics_need_a_read_token(anonymous: TestClient) -> None:
    """Prometheus scrapes with a personal API token as bearer (`authorization` in its job)."""
    assert anonymous.get("/api/metrics").status_code == 401


def test_a_second_signature_or_webhook_of_one_name_is_refused(
    api: TestClient, watched: dict[str, Any]
) -> None:
    again = api.post("/api/signatures", json=SIGNATURE)
    assert again.status_code == 422
    assert "exists already" in again.text
    hook = api.post(
        "/api/webhooks", json={"name": "ops json", "url": "http://127.0.0.1:9/x", "format": "json"}
    )
    assert hook.status_code == 422
    assert "exists already" in hook.text
