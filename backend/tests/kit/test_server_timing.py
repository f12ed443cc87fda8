"""Every answer says how long the console took to give it (`Server-Timing: app;dur=…`)."""

from __future__ import annotations

import time

import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse
from starlette.routing import Route
from starlette.testclient import TestClient

from stallscope.kit.server_timing import ServerTiming, server_ms

pytestmark = pytest.mark.storage_neutral


def slow(_: Request) -> PlainTextResponse:
    time.sleep(0.05)
    return PlainTextResponse("done", headers={"Server-Timing": "db;dur=3"})


def test_the_console_time_is_added_beside_the_answer_s_own_timings() -> None:
    app = ServerTiming(Starlette(routes=[Route("/slow", slow)]))
    response = TestClient(app).get("/slow")
    assert response.text == "done"
    timings = response.headers.get_list("server-timing")
    assert "db;dur=3" in timings
    took = server_ms(next(t for t in timings if t.startswith("app;")))
    assert took is not None
    assert took >= 50  # it includes the handler's sleep: the middleware wraps the whole answer


def test_reading_a_header() -> None:
    assert server_ms("db;dur=3, app;dur=12.5") == 12.5
    assert server_ms("db;dur=3") is None
    assert server_ms(None) is None
