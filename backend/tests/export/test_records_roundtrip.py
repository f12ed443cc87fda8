"""A capture's stored records, exported and uploaded into a new incident, give every view the same answer;
and a redactor sees every string that could carry a secret."""

from __future__ import annotations

import gzip
import io
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from stallscope.db import get_session_factory
from stallscope.export.records import write_capture_records
from stallscope.timeline.router import MAX_TRACKS
from tests.fixtures.corpus import corpus_file
from tests.fixtures.factories import make_incident, upload_bytes, upload_file
from tests.fixtures.worker import wait_parsed

DATA = Path(__file__).resolve().parents[1] / "ingest" / "data"
IDS = frozenset(
    {"id", "incident", "capture_id", "series_id", "incident_id", "capture_ids", "captures", "series"}
)
"""Keys whose values are ids of the console's own rows: they differ between the two incidents."""
CAPTURE_IDS = re.compile(r"\bcaptures? #?\d+(?:(?:, | and )#?\d+)*")
CAPTURE_FIELDS = (
    *("filename", "host", "kind", "format", "status", "sample_count", "stack_count", "thread_count"),
    *("events", "record_counts", "time_start", "time_end", "warnings", "dropped_lines", "truncated"),
)
NOT_REDACTED = {
    "frame": {2},
    "event": {3, 9},
    "series": {4},
    "document": {1},
}
"""Positions of record lines a redactor must not see (kinds, states, units), beside each line's tag."""
HEADER_NOT_REDACTED = {"format", "kind", "status", "sha256", "unit", "mode", "capture_clock", "perf_clock"}


def _captures() -> list[tuple[Path, dict[str, str]]]:
    """One capture of each kind: CPU profile, scheduler trace, sysstat metrics, system snapshot."""
    return [
        (corpus_file("captures", "clockmono", "cpu5s_clockmono.perf.txt.gz"), {"kind": "cpu"}),
        (DATA / "sched" / "lockwait.sched.txt.gz", {"kind": "offcpu", "offset": "+1763712000s"}),
        (DATA / "sysstat" / "sar_A.txt", {}),
        (DATA / "snapshot_text" / "collector.json", {"kind": "snapshot"}),
    ]


def _export(database_url: str, capture_id: int, redact: Any = None) -> bytes:
    out = io.BytesIO()
    with get_session_factory(database_url)() as session:
        write_capture_records(session, capture_id, out, redact)
    return out.getvalue()


def _without_ids(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: "<id>" if k in IDS else _without_ids(v) for k, v in value.items() if k != "query_ms"}
    if isinstance(value, list):
        return [_without_ids(v) for v in value]
    if isinstance(value, str):  # notes name captures by id
        return CAPTURE_IDS.sub("capture <id>", value)
    return value


def _views(api: TestClient, incident_id: int, capture: dict[str, Any]) -> dict[str, Any]:
    """Every view's answer about one capture, ids left out."""
    cid = capture["id"]
    get = lambda path, **params: api.get(path, params=params).json()  # noqa: E731
    views: dict[str, Any] = {key: capture[key] for key in CAPTURE_FIELDS}
    views["clock"] = {k: v for k, v in capture["clock"].items() if k != "capture_clock"}
    views["flame"] = get("/api/flame", captures=cid, max_nodes=100_000)
    views["offcpu_flame"] = get("/api/flame", captures=cid, source="off-cpu", max_nodes=100_000)
    views["facets"] = get("/api/facets", captures=cid)
    views["threads"] = get("/api/threads", captures=cid, limit=5000)
    streams = get("/api/heatmap/streams", captures=cid)
    views["heatmap_streams"] = streams
    views["heatmaps"] = [
        get("/api/heatmap", captures=cid, stream=s["stream"], value=value)
        for s in streams["streams"]
        for value in ("count", "duration")
    ]
    events = get("/api/events", captures=cid, limit=10_000, sort="time")
    # Events of equal times come in any order (TimescaleDB chunks): compare them as a set.
    events["events"] = sorted(events["events"], key=lambda e: json.dumps(e, sort_keys=True))
    views["events"] = events
    series = get("/api/metrics/series", captures=cid)
    views["series"] = series
    views["points"] = [get(f"/api/metrics/series/{s['id']}/points", buckets=10_000) for s in series]
    views["documents"] = get(f"/api/captures/{cid}/documents")
    return _without_ids(views)


def _incident_views(api: TestClient, incident_id: int) -> dict[str, Any]:
    tracks = api.get("/api/timeline/tracks", params={"incident": incident_id}).json()
    ids = [t["id"] for host in tracks.get("hosts", []) for t in host.get("tracks", [])]
    timeline = api.get(
        "/api/timeline", params={"incident": incident_id, "tracks": ",".join(ids[:MAX_TRACKS])}
    ).json()
    snapshots = api.get(f"/api/incidents/{incident_id}/snapshots").json()
    return _without_ids({"tracks": tracks, "timeline": timeline, "snapshots": snapshots})


@pytest.fixture(scope="module")
def originals(api: TestClient, worker: object) -> tuple[int, list[dict[str, Any]]]:
    """An incident holding one parsed capture of each kind."""
    incident = make_incident(api)["id"]
    captures = []
    for path, params in _captures():
        uploaded = upload_file(api, incident, path, host="db-1", **params)
        captures.append(wait_parsed(api, uploaded["id"]))
    assert [c["status"] for c in captures] == ["ready", "ready", "ready", "ready"], captures
    return incident, captures


def test_exported_records_rebuild_every_view_of_the_capture(
    api: TestClient, database_url: str, originals: tuple[int, list[dict[str, Any]]]
) -> None:
    original, captures = originals
    copy = make_incident(api)["id"]
    imported = []
    for capture in captures:
        records = _export(database_url, capture["id"])
        params = {"host": "db-1", **({"kind": capture["kind"]} if capture["kind"] else {})}
        uploaded = upload_bytes(api, copy, records, capture["filename"], **params)
        imported.append(wait_parsed(api, uploaded["id"]))

    for before, after in zip(captures, imported, strict=True):
        assert _views(api, copy, after) == _views(api, original, before), before["filename"]
    assert _incident_views(api, copy) == _incident_views(api, original)
    flame = _views(api, original, captures[0])["flame"]
    assert flame["total"] > 1000, "the CPU capture's flame graph is not empty"


def test_a_redactor_sees_every_string_but_kinds_states_and_units(
    database_url: str, originals: tuple[int, list[dict[str, Any]]]
) -> None:
    for capture in originals[1]:
        plain = _lines(_export(database_url, capture["id"]))
        shouted = _lines(_export(database_url, capture["id"], str.upper))
        assert len(plain) == len(shouted)
        changed = 0
        for line_plain, line_shouted in zip(plain, shouted, strict=True):
            for path, before, after in _strings(line_plain, line_shouted, ()):
                if _redactable(line_plain, path):
                    assert after == before.upper(), (path, before, after)
                    changed += before != after
                else:
                    assert after == before, (path, before, after)
        assert changed > 10, f"{capture['filename']}: too few strings with lowercase letters to mean much"


def _lines(data: bytes) -> list[Any]:
    return [json.loads(line) for line in gzip.decompress(data).splitlines()]


def _strings(a: Any, b: Any, path: tuple[Any, ...]) -> Iterator[tuple[tuple[Any, ...], str, str]]:
    """Every string of `a` with the string at the same place in `b` (same keys, same shape)."""
    if isinstance(a, dict):
        assert isinstance(b, dict), (path, a, b)
        assert list(a) == list(b), (path, a, b)
        for key in a:
            yield from _strings(a[key], b[key], (*path, key))
    elif isinstance(a, list):
        assert isinstance(b, list), (path, a, b)
        assert len(a) == len(b), (path, a, b)
        for index, (x, y) in enumerate(zip(a, b, strict=True)):
            yield from _strings(x, y, (*path, index))
    elif isinstance(a, str):
        assert isinstance(b, str), (path, a, b)
        yield path, a, b
    else:
        assert a == b, (path, a, b)


def _redactable(line: Any, path: tuple[Any, ...]) -> bool:
    if isinstance(line, dict):  # the header
        return path[-1] not in HEADER_NOT_REDACTED
    return path[0] != 0 and path[0] not in NOT_REDACTED.get(line[0], set())
