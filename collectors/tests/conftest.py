"""Shared fixtures: the collector as it is handed out, run as a program; a workload process; a stub
upload endpoint."""

from __future__ import annotations

import atexit
import functools
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Iterator, Sequence

import pytest

import build_zipapp

HERE = Path(__file__).resolve().parent
WORKLOAD = HERE / "workload.py"


@functools.lru_cache(maxsize=None)
def zipapp() -> Path:
    """The one file users copy, built by the build script from the package, once per test run.

    Its directory is readable by everyone: some tests run it as an unprivileged user.
    """
    directory = tempfile.mkdtemp(prefix="stallscope-collect-tests-")
    atexit.register(shutil.rmtree, directory, True)
    os.chmod(directory, 0o755)
    return build_zipapp.build(Path(directory) / "stallscope-collect.pyz")


def find_python(major: int, minor: int, env_var: str = "") -> str | None:
    """An interpreter of exactly this version: $env_var, pythonX.Y on PATH, or a pyenv install."""
    name = f"python{major}.{minor}"
    candidates = [os.environ.get(env_var, "") if env_var else "", name]
    candidates += sorted(glob.glob(os.path.expanduser(f"~/.pyenv/versions/{major}.{minor}*/bin/{name}")))
    for candidate in candidates:
        path = shutil.which(candidate) if candidate else None
        if not path:
            continue
        probe = subprocess.run(
            [path, "-c", "import sys; print(sys.version_info[:2])"],
            capture_output=True,
            text=True,
            check=False,
        )
        if probe.returncode == 0 and probe.stdout.strip() == f"({major}, {minor})":
            return path
    return None


def python38() -> str | None:
    """The oldest Python the collector supports: $COLLECTOR_TEST_PYTHON, python3.8 or pyenv's."""
    return find_python(3, 8, "COLLECTOR_TEST_PYTHON")


def run_collect(
    args: Sequence[str],
    env: dict[str, str] | None = None,
    timeout: float = 180,
    python: str = sys.executable,
) -> subprocess.CompletedProcess[str]:
    """Run the collector the way a user would: `python3 stallscope-collect.pyz ARGS`."""
    full_env = {k: v for k, v in os.environ.items() if not k.startswith("STALLSCOPE_")}
    full_env.update(env or {})
    return subprocess.run(
        [python, str(zipapp()), *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=full_env,
        check=False,
    )


class Workload:
    def __init__(self, directory: Path) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, str(WORKLOAD), str(directory)], stdout=subprocess.PIPE, text=True
        )
        assert self.proc.stdout is not None
        assert self.proc.stdout.readline().strip() == "ready"
        self.pid = self.proc.pid
        time.sleep(0.3)

    def tids_by_comm(self) -> dict[str, list[int]]:
        found: dict[str, list[int]] = {}
        for tid in os.listdir(f"/proc/{self.pid}/task"):
            comm = Path(f"/proc/{self.pid}/task/{tid}/comm").read_text().strip()
            found.setdefault(comm, []).append(int(tid))
        return found

    def stop(self) -> None:
        self.proc.kill()
        self.proc.wait()


@pytest.fixture(scope="module")
def workload(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Workload]:
    w = Workload(tmp_path_factory.mktemp("workload"))
    try:
        yield w
    finally:
        w.stop()


class StubServer:
    """The collector endpoint's HTTP behaviour only: records requests, answers from a script."""

    def __init__(self) -> None:
        self.requests: list[dict[str, Any]] = []
        self.responses: list[tuple[int, dict[str, Any]]] = []
        self.lock = threading.Lock()
        stub = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers["Content-Length"])
                body = self.rfile.read(length)
                parts = urllib.parse.urlsplit(self.path)
                with stub.lock:
                    stub.requests.append(
                        {
                            "path": parts.path,
                            "query": dict(urllib.parse.parse_qsl(parts.query)),
                            "headers": {k.lower(): v for k, v in self.headers.items()},
                            "body": body,
                        }
                    )
                    if stub.responses:
                        status, payload = stub.responses.pop(0)
                    else:
                        status, payload = 202, {"id": len(stub.requests), "status": "queued"}
                data = json.dumps(payload).encode()
                self.send_response(status)
                if 300 <= status < 400:
                    self.send_header("Location", "https://elsewhere.example/")
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def stub() -> Iterator[StubServer]:
    server = StubServer()
    try:
        yield server
    finally:
        server.close()
