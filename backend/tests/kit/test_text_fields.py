"""Text no one types, or the database cannot store, gets 422 naming the field, never 500."""

from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient

from tests.fixtures.factories import make_incident, upload_bytes

BODY = {"started_at": "2026-11-21T08:00:00Z"}


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("title", "disk\x00full"),
        ("title", "disk\x1b[31mfull"),
        ("title", "two\nlines"),
        ("summary", "nul \x00 in the summary"),
        ("summary", "lone surrogate \ud800"),
    ],
)
def test_incident_text_with_control_characters_is_422(api: TestClient, field: str, value: str) -> None:
    body = {**BODY, "title": "ok", field: value}
    response = api.post(
        "/api/incidents",
        content=json.dumps(body),  # json.dumps keeps a lone surrogate as \ud800
        headers={"Content-Type": "application/json"},
    )
    assert response.status_code == 422, response.text
    (error,) = response.json()["detail"]
    assert error["loc"] == ["body", field]
    assert error["msg"]


def test_a_summary_keeps_its_line_breaks_and_tabs(api: TestClient) -> None:
    incident = make_incident(api, summary="line one\n\tline two\r\n")
    assert incident["summary"] == "line one\n\tline two\r\n"


@pytest.mark.parametrize("param", ["filename", "host", "format", "kind", "offset"])
def test_upload_description_with_nul_is_422_before_the_body_is_stored(
    api: TestClient, param: str, data_dir: object
) -> None:
    incident = make_incident(api)["id"]
    params = {"filename": "cpu.txt", param: "bad\x00value"}
    response = api.post(
        f"/api/incidents/{incident}/captures",
        params=params,
        content=b"cpu 1\n",
        headers={"Content-Type": "application/octet-stream"},
    )
    assert response.status_code == 422, response.text
    assert param in json.dumps(response.json())
    assert api.get(f"/api/incidents/{incident}/captures").json() == []


def test_nul_inside_upload_metadata_is_422_naming_where(api: TestClient) -> None:
    incident = make_incident(api)["id"]
    meta = json.dumps({"collector": "x", "commands": ["perf record", "perf\u0000script"]})
    response = api.post(
        f"/api/incidents/{incident}/captures",
        params={"filename": "cpu.txt", "meta": meta},
        content=b"cpu 1\n",
        headers={"Content-Type": "application/octet-stream"},
    )
    assert response.status_code == 422, response.text
    assert "meta.commands[1]" in response.json()["detail"]


def test_nul_in_any_query_parameter_or_path_is_422(api: TestClient) -> None:
    flame = api.get("/api/flame", params={"captures": "1", "comm": "post\x00gres"})
    assert flame.status_code == 422
    assert "'comm'" in flame.json()["detail"]
    share = api.get("/s/abc%00def")
    assert share.status_code == 422


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/api/tokens", {"name": "db\x00hosts"}),
        ("/api/shares", {"target": "/flame?x=\x00"}),
    ],
)
def test_other_typed_text_is_checked_too(api: TestClient, path: str, body: dict[str, str]) -> None:
    response = api.post(path, json=body)
    assert response.status_code == 422, response.text


def test_annotation_text_with_nul_is_422(api: TestClient) -> None:
    incident = make_incident(api)["id"]
    response = api.post(
        f"/api/incidents/{incident}/annotations", json={"ts": "2026-11-21T08:00:01Z", "text": "a\x00b"}
    )
    assert response.status_code == 422
    assert response.json()["detail"][0]["loc"] == ["body", "text"]


def test_download_name_loses_bidi_overrides(api: TestClient) -> None:
    incident = make_incident(api)["id"]
    capture = upload_bytes(api, incident, b"cpu 1\n", "invoice\u202etxt.exe")
    assert capture["filename"] == "invoicetxt.exe"
    response = api.get(f"/api/captures/{capture['id']}/raw")
    assert response.status_code == 200
    disposition = response.headers["content-disposition"]
    assert "%E2%80%AE" not in disposition.upper()
    assert "invoicetxt.exe" in disposition


def test_download_names_lose_controls_and_reordering_characters() -> None:
    from stallscope.kit.text import download_name

    assert download_name("evil\u202etxt.exe", "x") == "eviltxt.exe"
    assert download_name("a\u2066b\u2069\x07c.txt", "x") == "abc.txt"
    assert download_name("\u202e\x00", "capture-3") == "capture-3"
