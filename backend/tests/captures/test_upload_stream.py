"""Uploads against a real uvicorn server: odd compression parses, and no upload stalls the console.

The server runs in its own process, as in production, so a stuck event loop shows as `/api/health`
not answering, and slow clients are real sockets.
"""

from __future__ import annotations

import gzip
import io
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from stallscope.commands.local_file import read_stream
from stallscope.config import get_settings
from stallscope.ingest.model import Sample
from tests.fixtures.factories import make_incident, upload_bytes
from tests.fixtures.worker import wait_parsed

IDLE_TIMEOUT_S = 3
IDLE_MIN_BYTES = 1024
START_TIMEOUT_S = 60
HEALTH_TIMEOUT_S = 10
RESPONSE_TIMEOUT_S = 60
CAPTURE = "perf-script/inferno/collapse-perf/go-stacks.txt"


@dataclass(frozen=True, slots=True)
class Server:
    port: int
    blob_dir: Path
    token: str
    """An admin's API token: uploads need a responder's."""

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def answers(self) -> bool:
        """Whether `/api/health` answers (200, or 503 naming what is down: either is an answer)."""
        response = httpx.get(f"{self.url}/api/health", timeout=HEALTH_TIMEOUT_S)
        return response.status_code in (200, 503) and "status" in response.json()

    def incoming(self) -> list[Path]:
        folder = self.blob_dir / "incoming"
        return sorted(folder.iterdir()) if folder.is_dir() else []


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@pytest.fixture(scope="module")
def server(database_url: str, admin_token: str) -> Iterator[Server]:
    """uvicorn serving the app, its idle-upload timeout set low; its uploads go where the session's
    worker reads them."""
    data_dir = Path(tempfile.mkdtemp(prefix="stallscope-upload-"))
    blob_dir = get_settings().blob_dir
    port = free_port()
    env = dict(
        os.environ,
        DATABASE_URL=database_url,
        STALLSCOPE_DATA_DIR=str(data_dir),
        STALLSCOPE_BLOB_URL=f"file://{blob_dir}",
        STALLSCOPE_UPLOAD_IDLE_TIMEOUT_S=str(IDLE_TIMEOUT_S),
        STALLSCOPE_UPLOAD_IDLE_MIN_BYTES=str(IDLE_MIN_BYTES),
    )
    log_path = data_dir / "server.log"
    command = [sys.executable, "-m", "uvicorn", "--factory", "stallscope.main:create_app"]
    with open(log_path, "wb") as log:
        process = subprocess.Popen(
            [*command, "--host", "127.0.0.1", "--port", str(port)],
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    up = Server(port, blob_dir, admin_token)
    try:
        deadline = time.monotonic() + START_TIMEOUT_S
        while True:
            try:
                if up.answers():
                    break
            except httpx.HTTPError:
                pass
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(
                    f"the server did not start:\n{log_path.read_text(errors='replace')[-4000:]}"
                )
            time.sleep(0.2)
        yield up
    finally:
        process.terminate()
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        shutil.rmtree(data_dir, ignore_errors=True)


def open_upload(server: Server, incident_id: int, filename: str, length: int) -> socket.socket:
    """A raw HTTP/1.1 upload whose headers are sent; the body is the caller's to send."""
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=RESPONSE_TIMEOUT_S)
    sock.sendall(
        (
            f"POST /api/incidents/{incident_id}/captures?filename={filename} HTTP/1.1\r\n"
            f"Host: 127.0.0.1:{server.port}\r\nContent-Type: application/octet-stream\r\n"
            f"X-Requested-With: test\r\nAuthorization: Bearer {server.token}\r\n"
            f"Content-Length: {length}\r\n\r\n"
        ).encode()
    )
    return sock


def read_response(sock: socket.socket) -> tuple[int, dict[str, str], dict[str, Any]]:
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            raise AssertionError(f"the server closed the connection without a response: {data!r}")
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    status_line, *header_lines = head.decode().split("\r\n")
    headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in header_lines)}
    while len(body) < int(headers.get("content-length", "0")):
        chunk = sock.recv(65536)
        if not chunk:
            break
        body += chunk
    return int(status_line.split()[1]), headers, json.loads(body)


def capture_text(corpus: Path) -> bytes:
    """The corpus capture, its last sample ended by a blank line so that copies can follow it."""
    return (corpus / CAPTURE).read_bytes().rstrip(b"\n") + b"\n\n"


def samples_in(text: bytes) -> int:
    capture = read_stream("text", io.BufferedReader(io.BytesIO(text)))
    return sum(1 for record in capture.records() if isinstance(record, Sample))


@pytest.fixture(scope="module")
def text(corpus: Path) -> bytes:
    """A capture that decompresses to well over 1 MiB from a gzip member of a few KiB."""
    data = capture_text(corpus) * 400
    assert len(data) > 2 << 20
    return data


def upload_in_flight(server: Server, incident_id: int, body: bytes, filename: str) -> dict[str, Any]:
    """Send all but the last byte, check the console answers meanwhile, then finish the upload."""
    with open_upload(server, incident_id, filename, len(body)) as sock:
        sock.sendall(body[:-1])
        time.sleep(0.5)  # the server has the bytes and is working on them
        assert server.answers(), "the console must answer while an upload is in flight"
        sock.sendall(body[-1:])
        status, _, capture = read_response(sock)
    assert status == 202, capture
    assert server.answers()
    return capture


def test_a_two_member_gzip_upload_never_stalls_the_console(
    server: Server, api: TestClient, worker: subprocess.Popen[bytes], text: bytes
) -> None:
    """The reported hang: the meter fed a finished member forever, on the event loop."""
    member = gzip.compress(text)
    incident = make_incident(api)
    capture = upload_in_flight(server, incident["id"], member + member, "two-members.txt.gz")
    assert capture["size_uncompressed"] == 2 * len(text)
    parsed = wait_parsed(api, capture["id"])
    assert parsed["status"] == "ready", parsed
    assert parsed["sample_count"] == 2 * samples_in(text)
    assert parsed["warnings"] == []


def test_trailing_garbage_is_accepted_and_the_parse_says_so(
    server: Server, api: TestClient, worker: subprocess.Popen[bytes], text: bytes
) -> None:
    member = gzip.compress(text)
    incident = make_incident(api)
    capture = upload_in_flight(server, incident["id"], member + b"\nscp: write failed\n", "garbage.txt.gz")
    assert capture["size_uncompressed"] == len(text)
    parsed = wait_parsed(api, capture["id"])
    assert parsed["status"] == "ready", parsed
    assert parsed["sample_count"] == samples_in(text)
    [warning] = parsed["warnings"]
    assert f"from byte {len(member):,} on" in warning["message"]
    assert "trailing garbage" in warning["message"]


def test_zero_padding_is_ignored(
    server: Server, api: TestClient, worker: subprocess.Popen[bytes], text: bytes
) -> None:
    member = gzip.compress(text)
    incident = make_incident(api)
    capture = upload_in_flight(server, incident["id"], member + bytes(8192), "padded.txt.gz")
    parsed = wait_parsed(api, capture["id"])
    assert parsed["status"] == "ready", parsed
    assert parsed["sample_count"] == samples_in(text)
    assert parsed["warnings"] == []


def test_clients_that_trickle_are_dropped_and_leave_nothing_behind(server: Server, api: TestClient) -> None:
    incident = make_incident(api)
    slow = [open_upload(server, incident["id"], f"slow-{i}.txt", 1_000_000) for i in range(5)]
    seen_in_flight = 0
    deadline = time.monotonic() + IDLE_TIMEOUT_S * 10
    waiting = list(slow)
    try:
        while waiting:
            assert time.monotonic() < deadline, "slow uploads must be dropped after the idle timeout"
            for sock in list(waiting):
                try:
                    sock.sendall(b"x")
                except OSError:  # the server has answered and closed its side
                    waiting.remove(sock)
            seen_in_flight = max(seen_in_flight, len(server.incoming()))
            assert server.answers()
            time.sleep(1)
        for sock in slow:
            sock.settimeout(RESPONSE_TIMEOUT_S)
            status, headers, body = read_response(sock)
            assert status == 408
            assert headers.get("connection") == "close"
            assert f"fewer than {IDLE_MIN_BYTES:,} bytes in {IDLE_TIMEOUT_S} s" in body["detail"]
            assert sock.recv(1) == b"", "the server closes the connection"
    finally:
        for sock in slow:
            sock.close()
    assert seen_in_flight == len(slow), "each upload had its temp file while it trickled"
    assert server.incoming() == [], "the dropped uploads' temp files are removed"
    assert server.answers()


def test_a_cut_stream_parses_to_partial_with_every_record_before_the_cut(
    api: TestClient, worker: subprocess.Popen[bytes], text: bytes
) -> None:
    member = gzip.compress(text)
    body = member + member[: len(member) // 2]
    incident = make_incident(api)
    capture = upload_bytes(api, incident["id"], body, "cut.txt.gz")
    parsed = wait_parsed(api, capture["id"])
    assert parsed["status"] == "partial", parsed
    assert parsed["truncated"] is True
    assert samples_in(text) < parsed["sample_count"] < 2 * samples_in(text)
    assert any(f"cut off at byte {len(body):,}" in w["message"] for w in parsed["warnings"]), parsed


def test_a_corrupt_gzip_block_parses_to_partial(
    api: TestClient, worker: subprocess.Popen[bytes], text: bytes
) -> None:
    first = gzip.compress(text)
    second = bytearray(gzip.compress(text))
    second[-8] ^= 0xFF  # its CRC no longer matches: damage only found at the member's end
    incident = make_incident(api)
    capture = upload_bytes(api, incident["id"], first + bytes(second), "crc.txt.gz")
    parsed = wait_parsed(api, capture["id"])
    assert parsed["status"] == "partial", parsed
    assert parsed["sample_count"] == 2 * samples_in(text)
    assert any("incorrect data check" in w["message"] for w in parsed["warnings"]), parsed


def test_a_gzip_that_yields_nothing_is_refused_with_422(api: TestClient, data_dir: Path) -> None:
    incident = make_incident(api)
    response = api.post(
        f"/api/incidents/{incident['id']}/captures",
        params={"filename": "broken.gz"},
        content=gzip.compress(b"x" * 1000)[:10] + b"\xff" * 200,
        headers={"Content-Type": "application/octet-stream"},
    )
    assert response.status_code == 422
    assert "the gzip data is corrupt" in response.json()["detail"]
    assert "nothing decompresses" in response.json()["detail"]
    assert list((data_dir / "blobs" / "incoming").iterdir()) == []
