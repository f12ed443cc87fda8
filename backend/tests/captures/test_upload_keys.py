"""Uploads that count once: every try of one upload carries the same `Idempotency-Key`.

A collector whose answer was lost (a timeout, a reset) sends the upload again; the console answers
200 with the capture the first try made instead of adding a second one.
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Iterator

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy.exc import IntegrityError

from stallscope.blobs.configured import blob_store
from stallscope.captures import service
from stallscope.captures.schemas import UploadInfo
from stallscope.config import get_settings
from stallscope.db import get_session_factory
from tests.fixtures.factories import make_incident
from tests.fixtures.people import bearer

pytestmark = pytest.mark.storage_neutral  # an upload's key is looked up the same way on either storage path

CAPTURE = b"svc 42/42 [001] 10.000100: 1000 cpu-clock:\n\t    1111 handle (/usr/bin/svc)\n\n"


def post(api: TestClient, incident: int, key: str | None, body: bytes = CAPTURE) -> httpx.Response:
    headers = {"Content-Type": "application/octet-stream"}
    if key is not None:
        headers["Idempotency-Key"] = key
    return api.post(
        "/api/collector/captures",
        params={"incident": incident, "filename": "svc.txt", "host": "web-1"},
        content=body,
        headers=headers,
    )


def captures_of(api: TestClient, incident: int) -> list[int]:
    return [c["id"] for c in api.get(f"/api/incidents/{incident}/captures").json()]


def test_a_repeated_key_answers_200_with_the_first_capture(api: TestClient) -> None:
    incident = make_incident(api)["id"]
    key = uuid.uuid4().hex
    first, again = post(api, incident, key), post(api, incident, key)
    assert (first.status_code, again.status_code) == (202, 200)
    assert again.json()["id"] == first.json()["id"]
    assert captures_of(api, incident) == [first.json()["id"]]


def test_other_keys_and_no_key_are_other_uploads(api: TestClient) -> None:
    incident = make_incident(api)["id"]
    answers = [post(api, incident, uuid.uuid4().hex), post(api, incident, uuid.uuid4().hex)]
    answers += [post(api, incident, None), post(api, incident, None)]
    assert [a.status_code for a in answers] == [202] * 4
    assert len(captures_of(api, incident)) == 4


def test_a_key_counts_per_incident(api: TestClient) -> None:
    key = uuid.uuid4().hex
    one, two = make_incident(api)["id"], make_incident(api)["id"]
    assert post(api, one, key).status_code == 202
    assert post(api, two, key).status_code == 202


def test_a_repeat_to_the_watch_stream_finds_the_first_try(api: TestClient) -> None:
    key, host = uuid.uuid4().hex, f"watch-keys-{uuid.uuid4().hex[:6]}"
    params = {"watch": "true", "filename": "round.txt", "host": host}
    headers = {"Content-Type": "application/octet-stream", "Idempotency-Key": key}
    first = api.post("/api/collector/captures", params=params, content=CAPTURE, headers=headers)
    again = api.post("/api/collector/captures", params=params, content=CAPTURE, headers=headers)
    assert (first.status_code, again.status_code) == (202, 200)
    assert again.json()["id"] == first.json()["id"]


@pytest.mark.parametrize("key", ["x" * 129, "tab\there"])
def test_a_key_that_is_not_short_printable_ascii_is_refused(api: TestClient, key: str) -> None:
    incident = make_incident(api)["id"]
    response = post(api, incident, key)
    assert response.status_code == 422
    assert "Idempotency-Key" in response.text
    assert captures_of(api, incident) == []


def test_the_database_refuses_a_second_capture_with_a_key(api: TestClient, database_url: str) -> None:
    """What two tries racing past the look-up meet: the second row is refused, and the route
    answers with the first (below)."""
    incident = make_incident(api)["id"]
    key = uuid.uuid4().hex
    assert post(api, incident, key).status_code == 202
    upload = blob_store().start_upload(get_settings().max_upload_bytes)
    upload.write(CAPTURE)
    blob = upload.commit()
    with get_session_factory(database_url)() as session:
        info = UploadInfo(filename="svc.txt", host="web-1", upload_key=key)
        with pytest.raises(IntegrityError, match="uq_captures_upload_key"):
            service.record_upload(session, incident, info, blob)


def test_two_tries_at_once_make_one_capture(console_url: str, admin_token: str, api: TestClient) -> None:
    incident = make_incident(api)["id"]
    key = uuid.uuid4().hex
    release = threading.Event()
    answers: list[httpx.Response] = []

    def slow_body() -> Iterator[bytes]:
        yield CAPTURE[:10]
        release.wait(10)  # both tries are past the look-up before either is stored
        yield CAPTURE[10:]

    def send() -> None:
        headers = {"Content-Type": "application/octet-stream", "Idempotency-Key": key, **bearer(admin_token)}
        params = {"incident": incident, "filename": "svc.txt", "host": "web-1"}
        with httpx.Client(base_url=console_url, timeout=30) as client:
            answers.append(
                client.post("/api/collector/captures", params=params, content=slow_body(), headers=headers)
            )

    threads = [threading.Thread(target=send) for _ in range(2)]
    for thread in threads:
        thread.start()
    threading.Timer(1.0, release.set).start()
    for thread in threads:
        thread.join(30)
    assert sorted(a.status_code for a in answers) == [200, 202]
    assert len({a.json()["id"] for a in answers}) == 1
    assert len(captures_of(api, incident)) == 1
