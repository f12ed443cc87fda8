"""Bad uploads end as failed or partial captures that say why; the raw file and the worker survive.

And the files people actually have are not bad: blank ones are `empty`, UTF-16 and a missing last
newline parse whole, and a tracer's lost events are counted where the capture's warnings show them.
"""

from __future__ import annotations

import gzip
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from stallscope.config import get_settings
from tests.fixtures.factories import make_incident, upload_bytes
from tests.fixtures.worker import wait_parsed

DATA = Path(__file__).resolve().parents[1] / "ingest" / "data"
GOOD_SAMPLE = b"""app 101 [000] 100.000001: 1001 cpu-clock:
\t    1234 leaf (/usr/bin/app)
\t    5678 main (/usr/bin/app)

"""


@pytest.fixture(scope="module")
def incident_id(api: TestClient) -> int:
    return int(make_incident(api)["id"])


def failed_with(api: TestClient, incident_id: int, data: bytes, filename: str) -> dict[str, object]:
    capture = upload_bytes(api, incident_id, data, filename)
    parsed = wait_parsed(api, int(capture["id"]))
    assert parsed["status"] == "failed", parsed
    raw = api.get(f"/api/captures/{capture['id']}/raw")
    assert raw.status_code == 200
    assert raw.content == data, "the raw upload must be kept even when parsing fails"
    return parsed


def parsed_upload(api: TestClient, incident_id: int, data: bytes, filename: str) -> dict[str, Any]:
    return wait_parsed(api, int(upload_bytes(api, incident_id, data, filename)["id"]))


@pytest.mark.parametrize(
    ("data", "filename"),
    [(b"", "empty.txt"), (b"\n  \n\t\n", "blank.txt"), (gzip.compress(b"\n\n"), "blank.txt.gz")],
)
def test_an_empty_file_is_an_empty_capture_not_a_failure(
    api: TestClient, worker: subprocess.Popen[bytes], incident_id: int, data: bytes, filename: str
) -> None:
    parsed = parsed_upload(api, incident_id, data, filename)
    assert (parsed["status"], parsed["error"], parsed["format"]) == ("empty", None, "empty")
    assert (parsed["sample_count"], parsed["warnings"], parsed["dropped_lines"]) == (0, [], 0)
    assert api.get(f"/api/captures/{parsed['id']}/raw").content == data


def test_binary_junk(api: TestClient, worker: subprocess.Popen[bytes], incident_id: int) -> None:
    junk = bytes(range(256)) * 64
    parsed = failed_with(api, incident_id, junk, "junk.bin")
    assert "junk.bin" in str(parsed["error"])
    assert "binary data" in str(parsed["error"])


@pytest.mark.parametrize(
    ("magic", "kind"),
    [
        (b"PERFILE2" + (104).to_bytes(8, "little"), "perf.data file"),
        (b"PERFILE2" + (16).to_bytes(8, "little"), "pipe mode"),
        (b"2ELIFREP" + (104).to_bytes(8, "big"), "big-endian"),
        (b"PERFFILE" + (72).to_bytes(8, "little"), "version 1"),
    ],
)
def test_perf_data_uploaded_by_mistake(
    api: TestClient, worker: subprocess.Popen[bytes], incident_id: int, magic: bytes, kind: str
) -> None:
    parsed = failed_with(api, incident_id, magic + bytes(200), "perf.data")
    error = str(parsed["error"])
    assert error.startswith("perf.data: this is ")
    assert kind in error
    assert "run `perf script -i perf.data | gzip > perf.txt.gz`" in error


def test_utf16_with_a_bom_parses(api: TestClient, worker: subprocess.Popen[bytes], incident_id: int) -> None:
    """What a folded file redirected with PowerShell's `>` looks like."""
    data = "node;main;read 5\r\nnode;main;write 2\r\n".encode("utf-16")
    parsed = parsed_upload(api, incident_id, data, "windows.folded")
    assert (parsed["status"], parsed["format"], parsed["sample_count"]) == ("ready", "collapsed", 2)


def test_a_missing_final_newline_loses_nothing(
    api: TestClient, worker: subprocess.Popen[bytes], incident_id: int
) -> None:
    parsed = parsed_upload(api, incident_id, b"# folded\nnode;main;read 5\nnode;main;write 2", "cpu.folded")
    assert (parsed["status"], parsed["sample_count"], parsed["warnings"]) == ("ready", 2, [])
    weights = {event["name"]: event["weight"] for event in parsed["events"]}
    assert weights == {"collapsed": 7}


def test_lost_events_are_reported_per_cpu(
    api: TestClient, worker: subprocess.Popen[bytes], incident_id: int
) -> None:
    data = (DATA / "perf_script" / "lost_events.txt.gz").read_bytes()
    parsed = parsed_upload(api, incident_id, data, "faults.txt.gz")
    assert (parsed["status"], parsed["sample_count"], parsed["dropped_lines"]) == ("ready", 856, 0)
    assert {
        "line": 89,
        "message": "perf lost 1,273 events (CPU 1: 1,273): the trace has gaps where its buffers were full",
    } in parsed["warnings"]


def test_unknown_text_format(api: TestClient, worker: subprocess.Popen[bytes], incident_id: int) -> None:
    parsed = failed_with(api, incident_id, b"Dear on-call,\nthe database is slow again.\n", "notes.txt")
    assert "notes.txt" in str(parsed["error"])
    assert "unrecognised format" in str(parsed["error"])


def test_truncated_mid_stack_keeps_what_parses(
    api: TestClient, worker: subprocess.Popen[bytes], incident_id: int
) -> None:
    cut = GOOD_SAMPLE * 3 + b"app 101 [000] 100.000004: 1001 cpu-clock:\n\t    1234 le"
    capture = upload_bytes(api, incident_id, cut, "cut.txt")
    parsed = wait_parsed(api, int(capture["id"]))
    assert parsed["status"] == "partial", parsed
    assert parsed["truncated"] is True
    assert parsed["sample_count"] == 3
    assert parsed["warnings"], "the capture must say what was dropped"


def test_worker_keeps_running_after_bad_input(
    api: TestClient, worker: subprocess.Popen[bytes], incident_id: int
) -> None:
    failed_with(api, incident_id, b"\x00\x01\x02 not text", "junk2.bin")
    assert worker.poll() is None
    good = upload_bytes(api, incident_id, GOOD_SAMPLE, "good.txt")
    assert wait_parsed(api, int(good["id"]))["status"] == "ready"


@pytest.fixture
def small_upload_limit() -> Iterator[int]:
    limit = 1 << 20
    os.environ["STALLSCOPE_MAX_UPLOAD_BYTES"] = str(limit)
    get_settings.cache_clear()
    yield limit
    del os.environ["STALLSCOPE_MAX_UPLOAD_BYTES"]
    get_settings.cache_clear()


def test_zip_bomb_is_refused_with_413(api: TestClient, incident_id: int, small_upload_limit: int) -> None:
    bomb = gzip.compress(b"\0" * (small_upload_limit * 8))
    assert len(bomb) < small_upload_limit
    response = api.post(
        f"/api/incidents/{incident_id}/captures", params={"filename": "bomb.gz"}, content=bomb
    )
    assert response.status_code == 413
    assert "larger than the server's limit of 1,048,576 bytes" in response.json()["detail"]


def test_over_limit_plain_upload_is_refused_with_413(
    api: TestClient, incident_id: int, small_upload_limit: int
) -> None:
    response = api.post(
        f"/api/incidents/{incident_id}/captures",
        params={"filename": "big.txt"},
        content=GOOD_SAMPLE * (small_upload_limit // len(GOOD_SAMPLE) + 10),
    )
    assert response.status_code == 413


def test_reparse_of_a_failed_capture_fails_the_same_way(
    api: TestClient, worker: subprocess.Popen[bytes], incident_id: int
) -> None:
    parsed = failed_with(api, incident_id, b"Dear on-call,\nagain.\n", "notes-again.txt")
    assert api.post(f"/api/captures/{parsed['id']}/reparse").status_code == 202
    again = wait_parsed(api, int(str(parsed["id"])))
    assert again["error"] == parsed["error"]
