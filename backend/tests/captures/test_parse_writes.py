"""The parse's writes run on a thread of their own, behind the parser: an error there still fails it.

The database refuses one sample here for real (a trigger the test adds and removes), in a batch that
is neither the first nor the last, while the parse goes on reading. The capture must end failed with
the database's reason, and none of its rows may stay: not the batches before, not the ones after.
The capture is stored as an upload would be but never queued, so the shared worker never claims it.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
from fastapi.testclient import TestClient

from stallscope.blobs.configured import blob_store
from stallscope.captures import service
from stallscope.captures.parsing import parse_capture
from stallscope.captures.schemas import UploadInfo
from stallscope.config import get_settings
from stallscope.db import get_session_factory
from stallscope.ingest import sample_store
from tests.fixtures.factories import make_incident

Conn = psycopg.Connection[tuple[Any, ...]]
REFUSED = "poison"
REASON = "the test refuses samples of this command"


def sample(comm: str, at_us: int) -> str:
    return (
        f"{comm} 42/42 [001] 10.{at_us:06d}: 1000 cpu-clock:\n"
        f"\t    1111 handle_{comm} (/usr/bin/{comm})\n"
        "\t    2222 main (/usr/bin/svc)\n\n"
    )


# Nine samples in batches of two: the refused one is in the third batch of five.
CAPTURE = "".join(sample(REFUSED if n == 5 else "svc", n) for n in range(1, 10)).encode()


@pytest.fixture
def refusing_samples(db: Conn) -> Iterator[None]:
    """A trigger that makes the database reject the refused command's samples, as a real error."""
    db.execute(
        "CREATE FUNCTION test_refuse_sample() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
        f"IF NEW.comm = '{REFUSED}' THEN RAISE EXCEPTION '{REASON}'; END IF; RETURN NEW; END $$"
    )
    db.execute(
        "CREATE TRIGGER test_refuse_sample BEFORE INSERT ON samples "
        "FOR EACH ROW EXECUTE FUNCTION test_refuse_sample()"
    )
    try:
        yield
    finally:
        db.execute("DROP TRIGGER test_refuse_sample ON samples")
        db.execute("DROP FUNCTION test_refuse_sample()")


def stored_capture(api: TestClient, database_url: str, data: bytes) -> int:
    settings = get_settings()
    writer = blob_store(settings).start_upload(settings.max_upload_bytes)
    writer.write(data)
    blob = writer.commit()
    with get_session_factory(database_url)() as session:
        upload = UploadInfo(filename="svc.txt")
        capture = service.record_upload(session, make_incident(api)["id"], upload, blob)
        session.commit()
        return capture.id


def test_a_database_error_behind_the_parser_fails_the_parse_and_keeps_none_of_its_rows(
    api: TestClient,
    database_url: str,
    db: Conn,
    refusing_samples: None,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(sample_store, "BATCH_SAMPLES", 2)
    capture_id = stored_capture(api, database_url, CAPTURE)
    parse_capture(database_url, capture_id)
    row = db.execute(
        "SELECT status, error, (SELECT count(*) FROM samples WHERE capture_id = c.id), "
        "(SELECT count(*) FROM capture_stack_totals WHERE capture_id = c.id) FROM captures c WHERE id = %s",
        (capture_id,),
    ).fetchone()
    assert row is not None
    status, error, sample_rows, total_rows = row
    assert status == "failed"
    # The reason in words, as the capture page shows it: not the exception's class, repr or context.
    assert (
        error
        == f"svc.txt: Stallscope failed while reading it (an internal error, logged on the server): {REASON}"
    )
    assert (sample_rows, total_rows) == (0, 0)
