"""The postmortem of a real incident: two hosts' lab captures (bad and fixed), an annotation, status
changes, a confirmed finding; downloaded as Markdown, HTML and zip, and built with a redactor."""

from __future__ import annotations

import html
import io
import re
import subprocess
import time
import xml.etree.ElementTree as ET
import zipfile
from typing import Any

import pytest
from fastapi.testclient import TestClient

from stallscope.auth.principal import Principal
from stallscope.auth.roles import Role
from stallscope.db import get_session_factory
from stallscope.postmortem.markdown import md
from stallscope.postmortem.service import build_postmortem
from tests.analysis.findings.lab import variant
from tests.fixtures.factories import make_incident, upload_file
from tests.fixtures.worker import wait_parsed

SCENARIO = "memory-pressure"
FILES = ("clock.json", "offcpu.perf.txt.gz", "proc.jsonl.gz")
"""Off-CPU stacks (the flame graph, thread states) and the /proc sampler (the PSI metric)."""
BAD, FIXED = "db-bravo-7", "db-fixed-2"
MATCHED = "filemap_fault"
"""The frame the finding's flame link searches for."""
WAIT_S = 60
SHORT = re.compile(r"http://localhost/s/([A-Za-z0-9_-]+)")


def _findings(api: TestClient, incident_id: int) -> dict[str, Any]:
    deadline = time.monotonic() + WAIT_S
    while True:
        body: dict[str, Any] = api.get(f"/api/incidents/{incident_id}/findings").json()
        if body["state"] == "ready" and body["captures_pending"] == 0 and body["baseline_hosts"] == [FIXED]:
            return body
        assert time.monotonic() < deadline, f"findings not ready: {body['state']}"
        time.sleep(0.2)


@pytest.fixture(scope="module")
def incident(api: TestClient, worker: subprocess.Popen[bytes]) -> tuple[int, dict[str, Any]]:
    summary = f"{BAD} paged: p99 of the cache tier went from 2 ms to 40 ms"
    incident_id: int = make_incident(api, started_at="2026-11-25T20:50:00Z", summary=summary)["id"]
    ids = [
        upload_file(api, incident_id, variant(SCENARIO, side) / name, host=host)["id"]
        for side, host in (("bad", BAD), ("fixed", FIXED))
        for name in FILES
    ]
    for capture_id in ids:
        assert wait_parsed(api, capture_id)["status"] in {"ready", "partial"}
    assert (
        api.put(f"/api/incidents/{incident_id}/findings/baseline", json={"hosts": [FIXED]}).status_code == 200
    )
    finding = next(f for f in _findings(api, incident_id)["findings"] if f["id"] == SCENARIO)
    note = {"ts": "2026-11-25T20:55:00Z", "text": f"raised memory.max on {BAD}", "host": BAD}
    assert api.post(f"/api/incidents/{incident_id}/annotations", json=note).status_code == 201
    for status in ("identified", "resolved"):
        assert api.patch(f"/api/incidents/{incident_id}", json={"status": status}).status_code == 200
    verdict = {"verdict": "confirmed", "note": f"the cache on {BAD} outgrew its cgroup"}
    assert (
        api.post(f"/api/incidents/{incident_id}/findings/{SCENARIO}/verdict", json=verdict).status_code == 200
    )
    return incident_id, finding


def _section(text: str, heading: str) -> str:
    return text.split(heading, 1)[1].split("\n## ", 1)[0]


def test_the_postmortem_tells_the_incident_with_its_evidence(
    api: TestClient, incident: tuple[int, dict[str, Any]], database_url: str
) -> None:
    incident_id, finding = incident
    base = f"/api/incidents/{incident_id}/postmortem"
    markdown, page, packed = (api.get(f"{base}.{fmt}") for fmt in ("md", "html", "zip"))
    for response in (markdown, page, packed):
        assert response.status_code == 200, response.text
        assert response.headers["content-disposition"].startswith("attachment;")
    text = markdown.text
    for heading in (
        "## Summary",
        "## Status history",
        "## Root cause",
        "## Timeline",
        "## Confirmed findings",
    ):
        assert heading in text
    assert "## Other findings (not confirmed)" in text

    # Status history and timeline in time order; the annotation is in the timeline.
    statuses = re.findall(r"\| (investigating|identified|resolved) \|", _section(text, "## Status history"))
    assert statuses == ["investigating", "identified", "resolved"]
    timeline = _section(text, "## Timeline")
    assert md(f"Annotation ({BAD}): raised memory.max on {BAD}") in timeline
    instants = re.findall(r"^\| (\S+Z) \|", timeline, re.MULTILINE)
    assert len(instants) >= 5
    assert instants == sorted(instants)

    # The confirmed finding with its figures, in both formats.
    confirmed = _section(text, "## Confirmed findings")
    assert f"### 1. {md(finding['title'])}" in confirmed
    assert md(f"the cache on {BAD} outgrew its cgroup") in confirmed
    for evidence in finding["evidence"]:
        assert md(evidence["text"]) in confirmed
        assert html.escape(evidence["text"]) in page.text
    assert md(finding["baseline"]) in confirmed

    # Images: the zip holds what the Markdown links, each a standalone SVG, inline in the HTML.
    archive = zipfile.ZipFile(io.BytesIO(packed.content))
    names = sorted(n for n in archive.namelist() if n.startswith("images/"))
    assert names == [f"images/finding-1-{kind}.svg" for kind in ("flame", "metric", "threads")]
    assert sorted(re.findall(r"\]\((images/[^)]+)\)", text)) == names
    assert {"postmortem.md", "postmortem.html"} <= set(archive.namelist())
    svgs = {name: archive.read(name).decode() for name in names}
    for svg in svgs.values():
        ET.fromstring(svg)
    assert page.text.count("<svg ") == 3
    assert "<script" not in page.text
    assert MATCHED in svgs["images/finding-1-flame.svg"]
    assert "#d21bd2" in svgs["images/finding-1-flame.svg"]
    assert "pressure.memory.some.avg10" in svgs["images/finding-1-metric.svg"]
    assert "cache-worker-1" in svgs["images/finding-1-threads.svg"]

    # Every evidence link is a short link that opens the evidence's view.
    targets = {
        api.get(f"/api/shares/{link_id}").json()["target"] for link_id in set(SHORT.findall(confirmed))
    }
    views = {e["view"] for e in finding["evidence"] if e["view"]} | {finding["view"]}
    assert targets == views

    # A redactor reaches every text, images included; a viewer's build reuses the links, makes none.
    assert BAD in text
    assert "cache-worker-1" in text

    def redact(value: str) -> str:
        return value.replace(BAD, "host-1").replace(FIXED, "host-2").replace("cache-worker", "worker")

    viewer = Principal(role=Role.VIEWER, name="reader", via="token")
    with get_session_factory(database_url)() as session:
        built = build_postmortem(
            session, incident_id, base_url="http://localhost/", principal=viewer, redact=redact
        )
        session.rollback()
    outputs = [built.markdown, built.html, *(svg.decode() for svg in built.images.values())]
    for output in outputs:
        for secret in (BAD, FIXED, "cache-worker"):
            assert secret not in output
    assert "host-1" in built.markdown
    assert MATCHED in built.images["finding-1-flame.svg"].decode()
    assert set(SHORT.findall(built.markdown)) == set(SHORT.findall(text))
