"""The metrics API on hand-made series with known answers: every series named by host and capture,
a counter's rate per bucket across a reset, latency percentiles per bucket, gauges as they are, and
an incident's series without naming its captures."""

from __future__ import annotations

import subprocess
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.fixtures.factories import make_incident
from tests.metrics.range_query import (
    DAY,
    T0,
    at,
    iso,
    points,
    range_result,
    series_list,
    upload_parsed,
)

# A counter scraped every 10 s that restarts (600 -> 50) at 40 s: steps of +100, +200, +300, then
# 50 counted from zero, then +200 five times.
REQUESTS = [0, 100, 300, 600, 50, 250, 450, 650, 850, 1050]
# Latencies: 1..10 ms in the first 10 s, 10..100 ms in the next 10 s.
LATENCY = [float(t + 1) for t in range(10)] + [float((t + 1) * 10) for t in range(10)]

HEALTHY = range_result(
    [
        ({"__name__": "requests_total", "job": "api"}, [(i * 10, v) for i, v in enumerate(REQUESTS)]),
        ({"__name__": "bytes_sent"}, [(i * 10, i * 1000) for i in range(10)]),
        (
            {"__name__": "queue_depth"},
            [(0, 5), (10, 3), (20, 8), (30, "NaN"), (40, 2), (50, 9), (60, 4)],
        ),
        ({"__name__": "request_latency_ms"}, [(t, v) for t, v in enumerate(LATENCY)]),
    ]
)
OTHER_HOST = range_result([({"__name__": "requests_total", "job": "api"}, [(0, 0), (10, 50), (20, 100)])])
# The impacted run, a day later: its first point is 3 s after its base.
IMPACTED_START = at(3, T0 + DAY)
IMPACTED = range_result(
    [({"__name__": "request_latency_ms"}, [(3 + t, v * 2) for t, v in enumerate(LATENCY)])],
    base=T0 + DAY,
)


@pytest.fixture(scope="module")
def incident(api: TestClient, worker: subprocess.Popen[bytes]) -> dict[str, Any]:
    created = make_incident(api)
    upload_parsed(api, created["id"], HEALTHY, "healthy.json", host="web-1")
    upload_parsed(api, created["id"], OTHER_HOST, "web2.json", host="web-2")
    upload_parsed(api, created["id"], IMPACTED, "impacted.json", host="web-1")
    return created


def by_key(listing: list[dict[str, Any]]) -> dict[tuple[str, str, str], dict[str, Any]]:
    return {(s["host"], s["capture_filename"], s["name"]): s for s in listing}


def series_id(api: TestClient, incident: dict[str, Any], host: str, filename: str, name: str) -> int:
    found: int = by_key(series_list(api, incident=str(incident["id"])))[(host, filename, name)]["id"]
    return found


def compact(result: dict[str, Any], *keys: str) -> list[tuple[Any, ...]]:
    return [(p["ts"], *(None if p[k] is None else round(p[k], 6) for k in keys)) for p in result["points"]]


# --- the list ----------------------------------------------------------------------------------------


def test_an_incident_lists_every_series_with_its_host_and_capture(
    api: TestClient, incident: dict[str, Any]
) -> None:
    listing = series_list(api, incident=str(incident["id"]))
    assert sorted(by_key(listing)) == [
        ("web-1", "healthy.json", "bytes_sent"),
        ("web-1", "healthy.json", "queue_depth"),
        ("web-1", "healthy.json", "request_latency_ms"),
        ("web-1", "healthy.json", "requests_total"),
        ("web-1", "impacted.json", "request_latency_ms"),
        ("web-2", "web2.json", "requests_total"),
    ]
    requests = [s for s in listing if s["name"] == "requests_total"]
    assert [(s["host"], s["labels"], s["points"]) for s in requests] == [
        ("web-1", {"job": "api"}, 10),
        ("web-2", {"job": "api"}, 3),
    ]
    kinds = {s["name"]: s["named_kind"] for s in listing}
    assert kinds == {
        "bytes_sent": "gauge",  # a counter only by its values, which the points' answer reads
        "queue_depth": "gauge",
        "request_latency_ms": "latency",
        "requests_total": "counter",
    }
    starts = {(s["host"], s["capture_filename"]): s["capture_start"] for s in listing}
    assert starts[("web-1", "healthy.json")] == iso(T0)
    assert starts[("web-1", "impacted.json")] == iso(IMPACTED_START)


def test_captures_still_select_series(api: TestClient, incident: dict[str, Any]) -> None:
    everything = series_list(api, incident=str(incident["id"]))
    web2 = {s["capture_id"] for s in everything if s["host"] == "web-2"}
    listing = series_list(api, captures=",".join(map(str, web2)))
    assert [(s["host"], s["name"]) for s in listing] == [("web-2", "requests_total")]


def test_the_list_needs_captures_or_a_known_incident(api: TestClient, incident: dict[str, Any]) -> None:
    assert api.get("/api/metrics/series").status_code == 422
    assert api.get("/api/metrics/series", params={"incident": "999999"}).status_code == 404
    empty = make_incident(api)
    assert series_list(api, incident=str(empty["id"])) == []


# --- counters ----------------------------------------------------------------------------------------


def test_a_counter_is_drawn_as_its_rate_per_bucket_across_a_reset(
    api: TestClient, incident: dict[str, Any]
) -> None:
    sid = series_id(api, incident, "web-1", "healthy.json", "requests_total")
    result = points(api, sid, start=iso(T0), end=iso(at(90)), buckets="3")
    assert (result["kind"], result["drawn"], result["unit"], result["resets"]) == ("counter", "rate", "/s", 1)
    assert result["kind_reason"] == "name ends in _total (1 reset)"
    assert result["bucket_ns"] == 30_000_000_000
    # Bucket rate = its steps' increase over their time; min and max = slowest and fastest step.
    assert compact(result, "avg", "min", "max", "count") == [
        (iso(T0), 15.0, 10.0, 20.0, 2),  # 100 + 200 over 20 s
        (iso(at(30)), round(550 / 30, 6), 5.0, 30.0, 3),  # 300 + 50 (reset: from zero) + 200 over 30 s
        (iso(at(60)), 20.0, 20.0, 20.0, 4),  # the last bucket holds the point at `end`
    ]


def test_the_first_bucket_steps_from_the_point_before_the_range(
    api: TestClient, incident: dict[str, Any]
) -> None:
    sid = series_id(api, incident, "web-1", "healthy.json", "requests_total")
    result = points(api, sid, start=iso(at(35)), end=iso(at(90)), buckets="1")
    # From 600 at 30 s: the reset to 50 at 40 s, then +200 five times, over 60 s.
    assert compact(result, "avg", "min", "max", "count") == [(iso(at(35)), 17.5, 5.0, 20.0, 6)]


def test_a_counter_can_be_drawn_raw(api: TestClient, incident: dict[str, Any]) -> None:
    sid = series_id(api, incident, "web-1", "healthy.json", "requests_total")
    result = points(api, sid, start=iso(T0), end=iso(at(90)), buckets="3", rate="false")
    assert (result["kind"], result["drawn"], result["unit"]) == ("counter", "values", None)
    assert compact(result, "avg", "min", "max", "count") == [
        (iso(T0), round(400 / 3, 6), 0.0, 300.0, 3),
        (iso(at(30)), 300.0, 50.0, 600.0, 3),
        (iso(at(60)), 750.0, 450.0, 1050.0, 4),
    ]


def test_a_series_whose_values_only_rise_is_a_counter(api: TestClient, incident: dict[str, Any]) -> None:
    sid = series_id(api, incident, "web-1", "healthy.json", "bytes_sent")
    result = points(api, sid, buckets="1")
    assert (result["kind"], result["kind_reason"], result["drawn"]) == ("counter", "values only rise", "rate")
    assert compact(result, "avg", "min", "max", "count") == [(iso(T0), 100.0, 100.0, 100.0, 9)]


def test_a_gauge_keeps_its_values_and_skips_nan(api: TestClient, incident: dict[str, Any]) -> None:
    sid = series_id(api, incident, "web-1", "healthy.json", "queue_depth")
    result = points(api, sid, buckets="1")
    assert (result["kind"], result["drawn"]) == ("gauge", "values")
    assert compact(result, "avg", "min", "max", "count", "p50") == [
        (iso(T0), round(31 / 6, 6), 2.0, 9.0, 6, None)
    ]
    # Asked for, a gauge's rate reads every fall as a reset, as for a counter.
    rated = points(api, sid, buckets="1", rate="true")
    assert rated["drawn"] == "rate"
    assert compact(rated, "avg", "count") == [(iso(T0), round((3 + 5 + 2 + 7 + 4) / 60, 6), 5)]


# --- latencies ---------------------------------------------------------------------------------------


def test_a_latency_gets_percentiles_per_bucket(api: TestClient, incident: dict[str, Any]) -> None:
    sid = series_id(api, incident, "web-1", "healthy.json", "request_latency_ms")
    result = points(api, sid, start=iso(T0), end=iso(at(20)), buckets="2")
    assert (result["kind"], result["drawn"], result["unit"]) == ("latency", "values", "ms")
    # Linear interpolation between the closest ranks, as percentile_cont and numpy's default do.
    assert compact(result, "p50", "p90", "p99", "max", "count") == [
        (iso(T0), 5.5, 9.1, 9.91, 10.0, 10),
        (iso(at(10)), 55.0, 91.0, 99.1, 100.0, 10),
    ]


def test_runs_at_different_times_align_on_their_capture_start(
    api: TestClient, incident: dict[str, Any]
) -> None:
    """The chart asks each run for the same span from its own start: the grids line up bucket for bucket."""
    healthy = series_id(api, incident, "web-1", "healthy.json", "request_latency_ms")
    impacted = series_id(api, incident, "web-1", "impacted.json", "request_latency_ms")
    a = points(api, healthy, start=iso(T0), end=iso(at(20)), buckets="2")
    b = points(api, impacted, start=iso(IMPACTED_START), end=iso(at(20, IMPACTED_START)), buckets="2")
    assert a["bucket_ns"] == b["bucket_ns"] == 10_000_000_000
    assert [p["ts"] for p in b["points"]] == [iso(IMPACTED_START), iso(at(10, IMPACTED_START))]
    assert [p["p99"] for p in b["points"]] == pytest.approx([2 * p["p99"] for p in a["points"]])


def test_bad_requests_say_what_is_wrong(api: TestClient, incident: dict[str, Any]) -> None:
    sid = series_id(api, incident, "web-1", "healthy.json", "queue_depth")
    assert api.get("/api/metrics/series/999999/points").status_code == 404
    backwards = api.get(f"/api/metrics/series/{sid}/points", params={"start": iso(at(10)), "end": iso(T0)})
    assert backwards.status_code == 422
    assert "before start" in backwards.text
