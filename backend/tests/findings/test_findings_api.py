"""Findings through the real worker: a lab capture uploaded as users upload it names its cause, with the
same numbers `stallscope findings` prints for the same files, a chosen baseline, and kept verdicts."""

from __future__ import annotations

import subprocess
import time
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import psycopg
import psycopg.types.json
import pytest
from fastapi.testclient import TestClient

from stallscope.analysis.findings.digest import VERSION
from stallscope.analysis.findings.engine import run_findings
from stallscope.commands.findings import read_side
from tests.analysis.findings.lab import variant
from tests.fixtures.factories import make_incident, upload_file
from tests.fixtures.worker import wait_parsed

SCENARIO = "mmap-lock-contention"
CAPTURE_SUFFIXES = (".gz", ".json")
WAIT_S = 60


def _upload_folder(api: TestClient, incident_id: int, folder: Path, host: str) -> list[int]:
    ids = []
    for path in sorted(folder.iterdir()):
        if path.name.endswith(CAPTURE_SUFFIXES):
            ids.append(upload_file(api, incident_id, path, host=host)["id"])
    for capture_id in ids:
        assert wait_parsed(api, capture_id)["status"] in {"ready", "partial"}
    return ids


def _findings(api: TestClient, incident_id: int, *, baseline: list[str] | None = None) -> dict[str, Any]:
    """The findings once computed with the wanted baseline and nothing left to parse."""
    deadline = time.monotonic() + WAIT_S
    while True:
        body: dict[str, Any] = api.get(f"/api/incidents/{incident_id}/findings").json()
        settled = body["state"] == "ready" and body["captures_pending"] == 0
        if settled and (baseline is None or body["baseline_hosts"] == baseline):
            return body
        assert time.monotonic() < deadline, f"findings not ready: {body['state']}"
        time.sleep(0.2)


@pytest.fixture(scope="module")
def incident(api: TestClient, worker: subprocess.Popen[bytes]) -> int:
    incident_id: int = make_incident(api)["id"]
    _upload_folder(api, incident_id, variant(SCENARIO, "bad"), "bad")
    _upload_folder(api, incident_id, variant(SCENARIO, "fixed"), "fixed")
    return incident_id


def _by_id(body: dict[str, Any], finding_id: str) -> dict[str, Any]:
    return next(f for f in body["findings"] if f["id"] == finding_id and "bad" in f["hosts"])


def test_the_bad_host_names_its_cause_with_the_numbers_the_cli_prints(api: TestClient, incident: int) -> None:
    api.put(f"/api/incidents/{incident}/findings/baseline", json={"hosts": []})
    body = _findings(api, incident, baseline=[])
    server = _by_id(body, SCENARIO)
    assert server["severity"] in {"warning", "critical"}
    assert "/flame?" in server["view"]
    assert f"incident={incident}" in server["view"]

    local = run_findings(read_side([variant(SCENARIO, "bad")], "bad").digests)
    cli = next(f.as_json() for f in local.findings if f.id == SCENARIO)
    assert server["summary"] == cli["summary"]
    assert [e["text"] for e in server["evidence"]] == [e["text"] for e in cli["evidence"]]


def test_a_baseline_host_turns_the_comparison_on(api: TestClient, incident: int) -> None:
    response = api.put(f"/api/incidents/{incident}/findings/baseline", json={"hosts": ["fixed"]})
    assert response.status_code == 200, response.text
    body = _findings(api, incident, baseline=["fixed"])
    assert body["hosts"] == ["bad", "fixed"]
    finding = _by_id(body, SCENARIO)
    assert finding["baseline"] is not None
    assert finding["baseline"].startswith("Absent on the baseline")
    assert body["findings"][0]["id"] == SCENARIO
    changed = next(f for f in body["findings"] if f["id"] == "what-changed")
    assert "a.hosts=fixed" in changed["view"] or changed["evidence"]


def test_an_unknown_baseline_host_is_refused(api: TestClient, incident: int) -> None:
    response = api.put(f"/api/incidents/{incident}/findings/baseline", json={"hosts": ["nowhere"]})
    assert response.status_code == 422
    assert "nowhere" in response.text


def test_a_verdict_is_kept_across_recomputation(api: TestClient, incident: int) -> None:
    response = api.post(
        f"/api/incidents/{incident}/findings/{SCENARIO}/verdict",
        json={"verdict": "confirmed", "note": "mmap in the allocator loop"},
    )
    assert response.status_code == 200
    assert response.json()["verdict"] == "confirmed"
    api.put(f"/api/incidents/{incident}/findings/baseline", json={"hosts": []})
    body = _findings(api, incident, baseline=[])
    verdict = _by_id(body, SCENARIO)["verdict"]
    assert verdict["verdict"] == "confirmed"
    assert verdict["note"] == "mmap in the allocator loop"
    api.post(f"/api/incidents/{incident}/findings/{SCENARIO}/verdict", json={"verdict": None})
    assert _by_id(_findings(api, incident), SCENARIO)["verdict"] is None


def test_an_incident_without_captures_has_no_findings_yet(api: TestClient) -> None:
    incident_id = make_incident(api)["id"]
    body = api.get(f"/api/incidents/{incident_id}/findings").json()
    assert (body["state"], body["findings"], body["captures_pending"]) == ("none", [], 0)
    assert api.get("/api/incidents/999999/findings").status_code == 404


@pytest.mark.parametrize("scenario", ["thundering-herd", "fsync-behind-writeback"])
def test_the_server_reads_wake_bursts_and_latencies_as_the_cli_does(
    api: TestClient, worker: subprocess.Popen[bytes], scenario: str
) -> None:
    # Wake-up bursts come from a window query over stored µs times, sync latencies from percentile_disc:
    # both must give the CLI's numbers to the digit.
    incident_id = make_incident(api)["id"]
    _upload_folder(api, incident_id, variant(scenario, "bad"), "bad")
    server = _by_id(_findings(api, incident_id), scenario)
    local = run_findings(read_side([variant(scenario, "bad")], "bad").digests)
    cli = next(f.as_json() for f in local.findings if f.id == scenario)
    assert server["summary"] == cli["summary"]
    assert [e["text"] for e in server["evidence"]] == [e["text"] for e in cli["evidence"]]


def test_captures_parsed_before_findings_get_their_digest_on_the_first_read(
    api: TestClient, worker: subprocess.Popen[bytes], database_url: str
) -> None:
    incident_id = make_incident(api)["id"]
    ids = _upload_folder(api, incident_id, variant(SCENARIO, "bad"), "bad")
    _findings(api, incident_id)
    with psycopg.connect(database_url, autocommit=True) as conn:  # as a console upgraded from before findings
        conn.execute("DELETE FROM capture_digests WHERE capture_id = ANY(%s)", (ids,))
        conn.execute("DELETE FROM incident_findings WHERE incident_id = %s", (incident_id,))
    assert api.get(f"/api/incidents/{incident_id}/findings").json()["state"] == "computing"
    assert _by_id(_findings(api, incident_id), SCENARIO)["severity"] in {"warning", "critical"}


def test_a_parse_on_one_host_recomputes_that_host_alone(
    api: TestClient, worker: subprocess.Popen[bytes], database_url: str
) -> None:
    incident_id = make_incident(api)["id"]
    quiet = _upload_folder(api, incident_id, variant(SCENARIO, "fixed"), "quiet")
    busy = _upload_folder(api, incident_id, variant(SCENARIO, "bad"), "busy")
    _findings(api, incident_id)
    with psycopg.connect(database_url, autocommit=True) as conn:
        row = conn.execute("SELECT per_host FROM incident_findings WHERE incident_id = %s", (incident_id,))
        per_host = row.fetchone()[0]  # type: ignore[index]
        assert set(per_host) == {"quiet", "busy"}
        # A finding only the stored state of host quiet holds: recomputing quiet would drop it.
        marker = dict(per_host["busy"][0], id="marker", hosts=["quiet"])
        per_host["quiet"] = [*per_host["quiet"], marker]
        conn.execute(
            "UPDATE incident_findings SET per_host = %s WHERE incident_id = %s",
            (psycopg.types.json.Jsonb(per_host), incident_id),
        )
    response = api.post(f"/api/captures/{busy[0]}/reparse")
    assert response.status_code in (200, 202), response.text
    wait_parsed(api, busy[0])
    body = _findings(api, incident_id)
    ids = {f["id"] for f in body["findings"]}
    assert SCENARIO in ids  # the busy host, recomputed
    assert "marker" in ids  # the quiet host's findings, taken as stored
    # Nor does the parse build the quiet host's digests when they are of an older version (as after
    # an upgrade): the next full recomputation does, off the parse's way to ready.
    with psycopg.connect(database_url, autocommit=True) as conn:
        conn.execute("UPDATE capture_digests SET version = version - 1 WHERE capture_id = ANY(%s)", (quiet,))
        assert api.post(f"/api/captures/{busy[0]}/reparse").status_code in (200, 202)
        wait_parsed(api, busy[0])
        rows = conn.execute("SELECT version FROM capture_digests WHERE capture_id = ANY(%s)", (quiet,))
        assert {version for (version,) in rows} == {VERSION - 1}
    # Captures sent to the trash no longer count; restored, they count again.
    for capture_id in busy:
        assert api.delete(f"/api/captures/{capture_id}").status_code == 204
    assert _findings_without(api, incident_id, SCENARIO)
    for capture_id in busy:
        assert api.post(f"/api/captures/{capture_id}/restore").status_code == 204
    assert SCENARIO in {f["id"] for f in _findings_when(api, incident_id, SCENARIO)["findings"]}


def _time_range(api: TestClient, incident_id: int, host: str) -> tuple[str, str]:
    """First and last record of a host's captures, as the API gives them (ISO 8601)."""
    captures = [c for c in api.get(f"/api/incidents/{incident_id}/captures").json() if c["host"] == host]
    timed = [c for c in captures if c["time_start"] and c["time_end"]]
    return min(c["time_start"] for c in timed), max(c["time_end"] for c in timed)


def test_a_time_window_is_compared_with_the_rest_of_the_time_range(api: TestClient, incident: int) -> None:
    # Host bad was recorded first, fixed nine seconds later: a window over bad's records has nothing
    # before it, so it is compared with the time after it, which holds fixed's records alone. The
    # numbers are then those of the host comparison, to the digit.
    api.put(f"/api/incidents/{incident}/findings/baseline", json={"hosts": ["fixed"]})
    by_host = _by_id(_findings(api, incident, baseline=["fixed"]), SCENARIO)
    start, last = _time_range(api, incident, "bad")
    end = (datetime.fromisoformat(last) + timedelta(microseconds=1)).isoformat()
    response = api.get(f"/api/incidents/{incident}/findings/window", params={"start": start, "end": end})
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["baseline"]["side"] == "after"
    assert any("Nothing comes before the window" in note for note in body["notes"])
    assert SCENARIO in [f["id"] for f in body["findings"][:3]]
    found = _by_id(body, SCENARIO)
    assert found["summary"] == by_host["summary"]
    assert [e["text"] for e in found["evidence"]] == [e["text"] for e in by_host["evidence"]]
    assert found["baseline"].startswith("Absent on the baseline")
    # Every view it links opens on the window; the diff puts the rest on side A.
    window_keys = {"from": datetime.fromisoformat(start), "to": datetime.fromisoformat(end)}
    for link in [found["view"], *(e["view"] for e in found["evidence"] if e["view"])]:
        query = parse_qs(urlsplit(link).query)
        assert {k: datetime.fromisoformat(query[k][0]) for k in window_keys} == window_keys, link
    changed = next(f for f in body["findings"] if f["id"] == "what-changed")
    diff = parse_qs(urlsplit(next(e["view"] for e in changed["evidence"] if e["view"])).query)
    assert datetime.fromisoformat(diff["a.from"][0]) == datetime.fromisoformat(end)
    assert datetime.fromisoformat(diff["b.to"][0]) == datetime.fromisoformat(end)


def test_the_time_after_a_quiet_window_is_where_the_pattern_is(api: TestClient, incident: int) -> None:
    # The window over fixed's records, against the time before it (bad's): no warning of the pattern.
    start, last = _time_range(api, incident, "fixed")
    end = (datetime.fromisoformat(last) + timedelta(microseconds=1)).isoformat()
    params = {"start": start, "end": end, "baseline": "before"}
    body = api.get(f"/api/incidents/{incident}/findings/window", params=params).json()
    assert body["baseline"]["side"] == "before"
    serious = [f["id"] for f in body["findings"] if f["severity"] in {"warning", "critical"}]
    assert SCENARIO not in serious


def test_a_window_outside_the_captures_is_refused_with_their_range(api: TestClient, incident: int) -> None:
    url = f"/api/incidents/{incident}/findings/window"
    response = api.get(url, params={"start": "2001-01-01T00:00:00Z", "end": "2001-01-01T00:00:01Z"})
    assert response.status_code == 422
    assert "the captures run from" in response.text
    backwards = api.get(url, params={"start": "2026-01-01T00:00:01Z", "end": "2026-01-01T00:00:00Z"})
    assert backwards.status_code == 422
    assert "must start before it ends" in backwards.text


def _findings_when(
    api: TestClient, incident_id: int, finding_id: str, present: bool = True
) -> dict[str, Any]:
    """The findings once `finding_id` is (or is no longer) among them."""
    deadline = time.monotonic() + WAIT_S
    while True:
        body = _findings(api, incident_id)
        if (finding_id in {f["id"] for f in body["findings"]}) == present:
            return body
        assert time.monotonic() < deadline, f"{finding_id} still {'absent' if present else 'present'}"
        time.sleep(0.2)


def _findings_without(api: TestClient, incident_id: int, finding_id: str) -> bool:
    found = _findings_when(api, incident_id, finding_id, present=False)["findings"]
    return finding_id not in {f["id"] for f in found}
