"""Uploads under back-pressure, against a local HTTP server that keeps the console's contract: a
capture's idempotency key on every POST, Retry-After waited out (and capped), an answer lost after
the console took the upload not turned into a duplicate, refused captures kept for later."""

from __future__ import annotations

import email.utils
import gzip
import json
import re
import socket
import threading
import time
import urllib.parse
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Iterator

import pytest

from stallscope_collect.console import Console
from stallscope_collect.record.outputs import Output
from stallscope_collect.upload.client import Attempt, parse_retry_after
from stallscope_collect.upload.sender import RETRY_AFTER_MAX_S, UploadSettings, retry_wait, send_entry
from stallscope_collect.upload.spool import Spool
from stallscope_collect.watch.stream import send_round, spool_round

from .conftest import run_collect

FAST = ["--retry-delay", "0.01", "--timeout", "5"]
TOKEN = {"STALLSCOPE_TOKEN": "s3cret-token"}
KEY = re.compile(r"[0-9a-f]{32}")


@dataclass
class Refuse:
    """Answer with back-pressure: 429 or 503, with this Retry-After (or none), or with an HTTP date
    `date_in` seconds after the answer."""

    status: int
    retry_after: str | None = None
    date_in: float | None = None

    def headers(self) -> dict[str, str]:
        if self.date_in is not None:
            return {"Retry-After": email.utils.formatdate(time.time() + self.date_in, usegmt=True)}
        return {} if self.retry_after is None else {"Retry-After": self.retry_after}


@dataclass
class AcceptSlowly:
    """Take the upload, then answer only after `seconds`: past the client's timeout, the answer is lost."""

    seconds: float


@dataclass
class Request:
    """One POST as the server saw it."""

    key: str
    query: dict[str, str]
    arrived: float
    sidecar_keys: list[Any]
    """The `upload_key` of every sidecar in the watched spool when the POST arrived."""
    status: int = 0
    answered: float = 0.0


@dataclass
class Endpoint:
    """The collector endpoint's idempotency contract: a key already accepted for the same target
    gets 200 and the capture it made then; a new one gets 201 and is stored. POSTs are answered
    from `script` first, in order, then accepted."""

    script: list[Refuse | AcceptSlowly] = field(default_factory=list)
    requests: list[Request] = field(default_factory=list)
    accepted: dict[tuple[str, str], dict[str, Any]] = field(default_factory=dict)
    bodies: list[bytes] = field(default_factory=list)
    spool: Path | None = None
    lock: threading.Lock = field(default_factory=threading.Lock)
    release: threading.Event = field(default_factory=threading.Event)
    """Set when the server closes: a slow answer stops waiting."""

    def take(self, query: dict[str, str], key: str, body: bytes) -> tuple[int, dict[str, Any]]:
        target = query.get("incident") or "watch:" + query.get("host", "")
        with self.lock:
            known = self.accepted.get((target, key)) if key else None
            if known is not None:
                return 200, known
            capture = {"id": len(self.accepted) + 1, "status": "queued"}
            self.accepted[(target, key or f"no key {capture['id']}")] = capture
            self.bodies.append(body)
            return 201, capture

    def sidecar_keys(self) -> list[Any]:
        if self.spool is None:
            return []
        return [json.loads(p.read_text()).get("upload_key") for p in sorted(self.spool.glob("*.json"))]

    def keys(self) -> list[str]:
        return [r.key for r in self.requests]


def serve(endpoint: Endpoint) -> tuple[ThreadingHTTPServer, str]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            arrived = time.monotonic()
            body = self.rfile.read(int(self.headers["Content-Length"]))
            query = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(self.path).query))
            key = self.headers.get("Idempotency-Key", "")
            with endpoint.lock:
                action = endpoint.script.pop(0) if endpoint.script else None
                request = Request(key, query, arrived, endpoint.sidecar_keys())
                endpoint.requests.append(request)
            headers: dict[str, str] = {}
            if isinstance(action, Refuse):
                status, payload = action.status, {"detail": "too many uploads for this token"}
                headers = action.headers()
            else:
                status, payload = endpoint.take(query, key, body)
            request.status = status
            if isinstance(action, AcceptSlowly):
                endpoint.release.wait(action.seconds)
            request.answered = time.monotonic()  # before the client can have it: waits measure no less
            self.answer(status, payload, headers)

        def answer(self, status: int, payload: dict[str, Any], headers: dict[str, str]) -> None:
            data = json.dumps(payload).encode()
            try:
                self.send_response(status)
                for name, value in headers.items():
                    self.send_header(name, value)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
            except OSError:  # the client gave up waiting: what a lost answer looks like
                pass

        def log_message(self, format: str, *args: Any) -> None:
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    return httpd, f"http://127.0.0.1:{httpd.server_address[1]}"


@pytest.fixture
def endpoint() -> Iterator[tuple[Endpoint, str]]:
    state = Endpoint()
    httpd, url = serve(state)
    try:
        yield state, url
    finally:
        state.release.set()
        httpd.shutdown()
        httpd.server_close()


@pytest.fixture
def capture_file(tmp_path: Path) -> Path:
    path = tmp_path / "cpu.perf.txt"
    path.write_text("swapper     0 [000]  3729.865295:   20408163 cpu-clock:pppH: \n\tffff f ([k])\n\n" * 200)
    return path


def dead_server_url() -> str:
    """A local port with nothing listening: connections are refused at once."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}"


def spool_files(spool: Path) -> list[str]:
    return sorted(p.name for p in spool.iterdir() if not p.name.startswith(".")) if spool.exists() else []


def upload(capture: Path, server: str, spool: Path, *flags: str) -> tuple[int, str]:
    args = ["upload", str(capture), "--server", server, "--incident", "7", "--kind", "cpu"]
    result = run_collect([*args, "--spool", str(spool), *flags], env=TOKEN)
    return result.returncode, result.stderr


def sidecar(spool: Path) -> dict[str, Any]:
    (path,) = spool.glob("*.json")
    info: dict[str, Any] = json.loads(path.read_text())
    return info


def waits(requests: list[Request]) -> list[float]:
    """From each answer to the POST that followed it."""
    return [later.arrived - earlier.answered for earlier, later in zip(requests, requests[1:])]


@pytest.mark.parametrize(
    "refusals",
    [
        pytest.param([Refuse(429, "1"), Refuse(429, "1")], id="429-seconds"),
        pytest.param([Refuse(503, "1")], id="503-seconds"),
        # Whole seconds: a date two seconds ahead is more than one second ahead.
        pytest.param([Refuse(503, date_in=2)], id="503-http-date"),
    ],
)
def test_retry_after_is_waited_out_and_the_capture_sent_once(
    endpoint: tuple[Endpoint, str], tmp_path: Path, capture_file: Path, refusals: list[Refuse]
) -> None:
    state, url = endpoint
    state.script = list(refusals)
    spool = tmp_path / "spool"
    status, stderr = upload(capture_file, url, spool, "--retries", "3", *FAST)
    assert status == 0, stderr
    assert len(state.requests) == len(refusals) + 1
    (key,) = set(state.keys())
    assert KEY.fullmatch(key), "every attempt carries the capture's one key"
    assert [r.status for r in state.requests] == [refusal.status for refusal in refusals] + [201]
    assert len(state.bodies) == 1
    assert gzip.decompress(state.bodies[0]) == capture_file.read_bytes()
    assert all(w >= 0.9 for w in waits(state.requests)), waits(state.requests)
    assert f"HTTP {refusals[0].status}: too many uploads for this token" in stderr
    assert "retry 1 of 3 in 1." in stderr or "retry 1 of 3 in 2." in stderr
    assert spool_files(spool) == []


def test_refused_until_the_retries_run_out_it_waits_in_the_spool_with_its_key(
    endpoint: tuple[Endpoint, str], tmp_path: Path, capture_file: Path
) -> None:
    """A 429 without Retry-After backs off as a 5xx does; when the console still refuses, the
    capture is pending (exit 3), as when it cannot be reached, and `flush` sends it with its key."""
    state, url = endpoint
    state.script = [Refuse(429), Refuse(503, "0")]
    spool = tmp_path / "spool"
    status, stderr = upload(capture_file, url, spool, "--retries", "1", *FAST)
    assert status == 3, stderr
    assert "retry 1 of 1 in 0.0 s" in stderr
    assert "kept in the spool" in stderr
    info = sidecar(spool)
    assert info["last_error"] == "HTTP 503: too many uploads for this token"
    assert info["attempts"] == 2
    assert state.keys() == [info["upload_key"]] * 2
    assert state.bodies == []

    result = run_collect(["flush", "--spool", str(spool), *FAST], env=TOKEN)
    assert result.returncode == 0, result.stderr
    assert state.keys() == [info["upload_key"]] * 3
    assert len(state.bodies) == 1
    assert spool_files(spool) == []


def test_an_answer_lost_after_the_console_took_the_upload_makes_no_duplicate(
    endpoint: tuple[Endpoint, str], tmp_path: Path, capture_file: Path
) -> None:
    """The first POST is stored but answered after the client's timeout; the retry repeats the key
    and the console answers 200 with the capture it already made."""
    state, url = endpoint
    state.script = [AcceptSlowly(3.0)]
    spool = tmp_path / "spool"
    status, stderr = upload(
        capture_file, url, spool, "--retries", "2", "--retry-delay", "0.01", "--timeout", "0.5"
    )
    assert status == 0, stderr
    assert f"no answer from {url.split('//')[1]} within 0.5 s" in stderr
    assert len(state.requests) == 2
    (key,) = set(state.keys())
    assert KEY.fullmatch(key), "the retry repeats the key"
    assert [r.status for r in state.requests] == [201, 200]
    assert len(state.bodies) == 1, "one capture on the console"
    assert list(state.accepted.values()) == [{"id": 1, "status": "queued"}]
    assert "capture 1 queued (the console already had it)" in stderr
    assert spool_files(spool) == []


def test_a_capture_spooled_without_a_key_gets_one_written_before_it_is_first_sent(
    endpoint: tuple[Endpoint, str], tmp_path: Path, capture_file: Path
) -> None:
    """Sidecars written by collectors older than the key have none: the key is made and written to
    the sidecar before the first POST, so a later flush (or a restarted process) repeats it."""
    state, url = endpoint
    spool = tmp_path / "spool"
    status, _ = upload(capture_file, dead_server_url(), spool, "--retries", "0")
    assert status == 3
    (path,) = spool.glob("*.json")
    older = json.loads(path.read_text())
    del older["upload_key"]
    path.write_text(json.dumps(older))

    state.spool = spool
    state.script = [Refuse(503)]
    flush = ["flush", "--server", url, "--spool", str(spool), "--retries", "0", *FAST]
    result = run_collect(flush, env=TOKEN)
    assert result.returncode == 3, result.stderr
    key = sidecar(spool)["upload_key"]
    assert KEY.fullmatch(key)
    assert state.requests[0].key == key
    assert state.requests[0].sidecar_keys == [key], "written before the POST"

    result = run_collect(flush, env=TOKEN)
    assert result.returncode == 0, result.stderr
    assert state.keys() == [key, key]
    assert len(state.bodies) == 1
    assert spool_files(spool) == []


def round_outputs(directory: Path, number: int) -> list[Output]:
    directory.mkdir()
    outputs = []
    for kind in ("cpu", "proc"):
        path = directory / f"{kind}.txt"
        path.write_text(f"round {number} {kind}\n" * 50)
        outputs.append(Output(str(path), kind, None, [], []))
    return outputs


def test_a_refused_watch_round_waits_in_the_spool_and_goes_first_with_the_next(
    endpoint: tuple[Endpoint, str], tmp_path: Path
) -> None:
    """Watch mode sends through the same sender: round 1 refused with 429 stays spooled, and round
    2 sends it first, oldest first, under the keys round 1's attempt carried."""
    state, url = endpoint
    spool = Spool(str(tmp_path / "spool"))
    quiet = Console(quiet=True)
    settings = UploadSettings(token="t", retries=0, retry_delay=0.01, timeout=5)
    state.script = [Refuse(429, "30")]

    first, _ = spool_round(spool, round_outputs(tmp_path / "r1", 1), url, "web-1", "r1", None, {}, quiet)
    assert send_round(spool, [], first, settings, url, "web-1", quiet) == (0, 0)
    assert len(spool.entries()) == 2
    refused_key = state.requests[0].key
    assert refused_key == first[0].info["upload_key"]

    older = spool.entries()
    second, _ = spool_round(spool, round_outputs(tmp_path / "r2", 2), url, "web-1", "r2", None, {}, quiet)
    assert send_round(spool, older, second, settings, url, "web-1", quiet) == (2, 2)
    sent = [r.query["filename"] for r in state.requests[1:]]
    assert sent == ["r1-cpu.txt.gz", "r1-proc.txt.gz", "r2-cpu.txt.gz", "r2-proc.txt.gz"]
    assert state.requests[1].key == refused_key
    assert len(set(state.keys()[1:])) == 4, "a key per capture"
    assert len(state.bodies) == 4
    assert spool.entries() == []


def test_a_stop_signal_ends_the_wait_for_a_retry_and_keeps_the_capture(
    endpoint: tuple[Endpoint, str], tmp_path: Path, capture_file: Path
) -> None:
    """A watch being stopped does not sit out a long Retry-After: the capture waits in the spool."""
    state, url = endpoint
    state.script = [Refuse(429, "120")]
    spool = Spool(str(tmp_path / "spool"))
    entry = spool.add(
        str(capture_file),
        {"server": url, "incident": 7, "filename": "a.gz", "host": "h", "kind": "cpu"},
        Console(quiet=True),
    )
    stop = threading.Event()
    stop.set()
    settings = UploadSettings(token="t", retries=3, retry_delay=0.01, timeout=5, stop=stop)
    result = send_entry(spool, entry, settings, Console(quiet=True))
    assert not result.ok
    assert result.retry_after == 120
    assert len(state.requests) == 1
    (kept,) = spool.entries()
    assert kept.info["upload_key"] == state.requests[0].key
    assert kept.info["attempts"] == 1


def test_retry_after_in_seconds_or_as_an_http_date() -> None:
    now = 1_800_000_000.0
    assert parse_retry_after("1") == 1.0
    assert parse_retry_after(" 120 ") == 120.0
    assert parse_retry_after("3600") == 3600.0, "capped by the sender, not here"
    assert parse_retry_after(email.utils.formatdate(now + 90, usegmt=True), now) == 90.0
    assert parse_retry_after(email.utils.formatdate(now + 90), now) == 90.0, "a numeric zone"
    assert parse_retry_after("Mon, 01 Jan 2024 00:00:00 GMT", now) == 0.0, "a date past is now"
    # The two obsolete forms HTTP recipients must still read (RFC 9110, section 5.6.7).
    assert parse_retry_after("Friday, 15-Jan-27 08:01:30 GMT", now) == 90.0
    assert parse_retry_after("Fri Jan 15 08:01:30 2027", now) == 90.0
    for unreadable in (None, "", "-5", "nan", "inf", "soon", "Wed, 99 Foo 2027"):
        assert parse_retry_after(unreadable, now) is None, unreadable


def test_retry_wait_follows_retry_after_up_to_the_cap() -> None:
    refused = Attempt(False, True, "HTTP 429: busy", 429)
    for asked in (0.0, 1.0, 30.0):
        refused.retry_after = asked
        delay, note = retry_wait(refused, 0, 1.0)
        assert asked <= delay <= asked * 1.1
        assert note == ""
    refused.retry_after = 3600.0
    delay, note = retry_wait(refused, 0, 1.0)
    assert delay == RETRY_AFTER_MAX_S
    assert note == " (the console asked for 3600 s; waiting 300 s at most)"
    refused.retry_after = None
    assert all(2.0 <= retry_wait(refused, 2, 1.0)[0] <= 4.0 for _ in range(20)), "backoff without it"
