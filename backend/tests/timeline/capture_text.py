"""Tiny captures in the exact text formats the importers read, with times chosen for known answers."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any

from fastapi.testclient import TestClient

from tests.fixtures.factories import upload_bytes
from tests.fixtures.worker import wait_parsed

T0 = datetime(2026, 11, 21, 8, 0, 0, tzinfo=UTC)
"""Where perf time 100.0 s lands with OFFSET: the captures below start at 08:00:00Z."""
OFFSET = "+1795247900s"
"""Capture clock to UTC for perf time: 1795248000 s (T0) minus 100 s."""


def iso(seconds_after_t0: float) -> str:
    whole = int(seconds_after_t0)
    micros = round((seconds_after_t0 - whole) * 1_000_000)
    return f"2026-11-21T08:00:{whole:02d}.{micros:06d}Z"


def perf_sample(
    comm: str, pid: int, tid: int, t: float, event: str = "cpu-clock", period: int = 1_000_000
) -> str:
    """One `perf script -F comm,pid,tid,cpu,time,period,event,ip,sym,dso` sample with a two-frame stack."""
    return (
        f"{comm} {pid}/{tid} [000] {t:.6f}: {period} {event}:\n"
        f"\t    1000 work_{comm} (/usr/bin/{comm})\n"
        f"\t    2000 main (/usr/bin/{comm})\n\n"
    )


def perf_capture(samples: Iterable[tuple[str, int, int, float]]) -> bytes:
    return "".join(perf_sample(comm, pid, tid, t) for comm, pid, tid, t in samples).encode()


def sched_switch(comm: str, tid: int, cpu: int, t: str, state: str, next_comm: str, next_tid: int) -> str:
    """A `perf sched record` + `perf script` sched_switch sample, tracepoint arguments on the header."""
    args = (
        f"prev_comm={comm} prev_pid={tid} prev_prio=120 prev_state={state} "
        f"==> next_comm={next_comm} next_pid={next_tid} next_prio=120"
    )
    return (
        f"{comm} {tid} [{cpu:03d}] {t}: sched:sched_switch: {args}\n"
        "\tffffffff81000000 __schedule+0x1 ([kernel.kallsyms])\n"
        "\tffffffff81000001 schedule+0x1 ([kernel.kallsyms])\n\n"
    )


def perf_trace_call(
    t_ms: float, duration_ms: float, comm: str, tid: int, call: str, result: str = "0"
) -> str:
    """A `perf trace` line: start in ms from the start of the trace, duration in ms."""
    return f"{t_ms:10.3f} ({duration_ms:6.3f} ms): {comm}/{tid} {call} = {result}\n"


def upload_parsed(
    api: TestClient, incident_id: int, data: bytes, filename: str, **params: str
) -> dict[str, Any]:
    capture = upload_bytes(api, incident_id, data, filename, **params)
    parsed = wait_parsed(api, capture["id"])
    assert parsed["status"] in {"ready", "partial"}, parsed
    return parsed


def tracks(api: TestClient, incident_id: int, **params: str) -> dict[str, Any]:
    response = api.get("/api/timeline/tracks", params={"incident": str(incident_id), **params})
    assert response.status_code == 200, response.text
    result: dict[str, Any] = response.json()
    return result


def timeline(api: TestClient, incident_id: int, track_ids: list[str], **params: Any) -> dict[str, Any]:
    response = api.get(
        "/api/timeline",
        params={"incident": str(incident_id), "tracks": ",".join(track_ids), **params},
    )
    assert response.status_code == 200, response.text
    result: dict[str, Any] = response.json()
    return result


def one_track(result: dict[str, Any]) -> dict[str, Any]:
    (track,) = result["tracks"]
    assert isinstance(track, dict)
    return track
