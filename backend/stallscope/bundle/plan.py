"""What each view of a bundle asks the API, so the bundle can hold the answers.

The offline viewer runs the console's own pages, which ask the API as they do in the console; the
bundle answers from what the exporter recorded (`keys.py` says how answers are filed). So for each
view the exporter asks exactly what the page will ask in its default state: the same URLs the
console's front end builds (`frontend/src/api/endpoints.ts` and each feature's `api.ts`), with the
layout-dependent parameters (the timeline's `width`, metric points' `buckets`) at one value the
viewer's nearest-value lookup accepts.

Standard views name their captures explicitly (`captures=`), so the pages need not choose them;
saved views (short links) are planned from their own parameters. Answers some views need first (the
timeline's track listing, the metric series) are read before the requests that depend on them.
`frontend/e2e/bundle.spec.ts` opens every view offline and fails on any request the bundle lacks.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit

from stallscope.bundle.timeline_tracks import default_track_ids
from stallscope.kit.units import utc_iso

Fetch = Callable[[str], Awaitable[Any]]
"""A GET whose JSON answer the caller records under the URL."""

MAX_NODES = 50000
TIMELINE_WIDTH = 1328
POINT_BUCKETS = 1200
EVENTS_PAGE = 200
HEATMAP_ROWS = 50
HEATMAP_COLUMNS = 600
DIFF_TOP = 200
THREADS_LIMIT = 500
MAX_METRIC_SERIES = 8
_SELECTION = ("pid", "tid", "comm", "within")


async def fetch_view(route: str, fetch: Fetch) -> None:
    """Ask everything the page at `route` asks in its default state."""
    parts = urlsplit(route)
    params = dict(parse_qsl(parts.query, keep_blank_values=True))
    path = parts.path.rstrip("/")
    segments = path.strip("/").split("/")
    incident = params.get("incident")
    if path == "/flame":
        await _flame(params, fetch)
    elif path == "/threads":
        await _threads(params, fetch)
    elif path == "/heatmap":
        await _heatmap(params, fetch)
    elif path == "/diff":
        await _diff(params, fetch)
    elif path == "/timeline":
        await _timeline(params, fetch)
    elif path == "/metrics":
        await _metrics(params, fetch)
    elif path == "/events":
        await _events(params, fetch)
    elif segments[0] == "captures" and len(segments) == 3:
        await fetch(f"/api/captures/{segments[1]}")
        await fetch(f"/api/captures/{segments[1]}/documents")
    elif segments[0] == "incidents" and len(segments) == 3:
        await fetch(f"/api/incidents/{segments[1]}/snapshots")
        await fetch(f"/api/incidents/{segments[1]}/captures")
        await fetch(f"/api/snapshots/diff?{urlencode({'a': params.get('a', ''), 'b': params.get('b', '')})}")
    elif segments[0] == "incidents" and len(segments) == 2:
        for tail in ("captures", "storage", "findings"):
            await fetch(f"/api/incidents/{segments[1]}/{tail}")
    if incident and path in ("/flame", "/threads", "/heatmap", "/diff"):
        await fetch(f"/api/incidents/{incident}/captures")


def iso_us(text: str) -> str:
    """A route instant as the front end re-prints it: UTC, always six fraction digits."""
    return utc_iso(datetime.fromisoformat(text.replace("Z", "+00:00")))


def _window(params: dict[str, str], prefix: str = "") -> dict[str, str]:
    window = {}
    if params.get(f"{prefix}from"):
        window[f"{prefix}start"] = iso_us(params[f"{prefix}from"])
    if params.get(f"{prefix}to"):
        window[f"{prefix}end"] = iso_us(params[f"{prefix}to"])
    return window


def _selection(params: dict[str, str], prefix: str = "") -> dict[str, str]:
    found = {f"{prefix}{k}": params[f"{prefix}{k}"] for k in _SELECTION if params.get(f"{prefix}{k}")}
    return {**found, **_window(params, prefix)}


def _url(path: str, query: dict[str, str]) -> str:
    return f"{path}?{urlencode(query)}"


async def _flame(params: dict[str, str], fetch: Fetch) -> None:
    captures = params["captures"]
    source: dict[str, str] = {}
    if params.get("source") == "off-cpu":
        source = {"source": "off-cpu", **({"state": params["state"]} if params.get("state") else {})}
    elif params.get("event"):
        source = {"event": params["event"]}
    facets = {"captures": captures, **{k: v for k, v in source.items() if k in ("source", "state")}}
    await fetch(_url("/api/facets", facets))
    await fetch(
        _url(
            "/api/flame", {"captures": captures, "max_nodes": str(MAX_NODES), **source, **_selection(params)}
        )
    )


async def _threads(params: dict[str, str], fetch: Fetch) -> None:
    query = {"captures": params["captures"], "limit": str(THREADS_LIMIT), **_selection(params)}
    await fetch(_url("/api/threads", query))
    await fetch(f"/api/incidents/{params['incident']}/findings")


async def _heatmap(params: dict[str, str], fetch: Fetch) -> None:
    captures = params["captures"]
    await fetch(_url("/api/heatmap/streams", {"captures": captures}))
    stream = params.get("stream", "samples")
    query = {
        "captures": captures,
        "stream": stream,
        "rows": params.get("rows", str(HEATMAP_ROWS)),
        "value": params.get("value", "count"),
        "max_columns": str(HEATMAP_COLUMNS),
        "top": "10",
    }
    if stream == "off-cpu" and params.get("state"):
        query["state"] = params["state"]
    await fetch(_url("/api/heatmap", query))


async def _diff(params: dict[str, str], fetch: Fetch) -> None:
    await fetch(f"/api/incidents/{params['incident']}/findings")
    query = {
        "a.captures": params["a.captures"],
        "b.captures": params["b.captures"],
        "source": params.get("source", "samples"),
        "normalize": params.get("normalize", "total"),
        "max_nodes": str(MAX_NODES),
        "top": str(DIFF_TOP),
        **_selection(params, "a."),
        **_selection(params, "b."),
    }
    await fetch(_url("/api/diff", query))


async def _timeline(params: dict[str, str], fetch: Fetch) -> None:
    incident = params["incident"]
    scope = {k: params[k] for k in ("captures", "hosts") if params.get(k)}
    listing = await fetch(_url("/api/timeline/tracks", {"incident": incident, **scope}))
    await fetch(f"/api/incidents/{incident}/annotations")
    tracks = params.get("tracks") or ",".join(default_track_ids(listing))
    window = _window(params)
    start = window.get("start") or _listing_instant(listing.get("time_start"))
    end = window.get("end") or _listing_instant(listing.get("time_end"))
    if not tracks or start is None or end is None:
        return  # the page shows its empty state and asks nothing more
    query = {"incident": incident, **scope, "tracks": tracks, "start": start, "end": end}
    query |= {k: params[k] for k in ("pid", "tid", "comm") if params.get(k)}
    if params.get("split") == "thread":
        query["split"] = "thread"
    await fetch(_url("/api/timeline", {**query, "width": str(TIMELINE_WIDTH)}))


def _listing_instant(value: object) -> str | None:
    return iso_us(value) if isinstance(value, str) else None


async def _metrics(params: dict[str, str], fetch: Fetch) -> None:
    scope = {"captures": params["captures"]} if params.get("captures") else {"incident": params["incident"]}
    listing = await fetch(_url("/api/metrics/series", scope))
    wanted = {int(s) for s in params.get("series", "").split(",") if s.strip().isdigit()}
    chosen = [s for s in listing if s["id"] in wanted and s.get("points")]
    starts = [s["first"] for s in chosen if s.get("first")]
    ends = [s["last"] for s in chosen if s.get("last")]
    if not chosen or not starts or not ends:
        return
    start, end = min(starts), max(ends)
    for series in chosen:
        query = {"buckets": str(POINT_BUCKETS), "start": start, "end": end}
        if params.get("counters") == "raw":
            query["rate"] = "false"
        await fetch(_url(f"/api/metrics/series/{series['id']}/points", query))


def metric_series_for(listing: list[dict[str, Any]]) -> list[int]:
    """The series a bundle's metrics view shows: system-wide ones first (no labels), then the rest."""
    with_points = [s for s in listing if s.get("points")]
    ranked = sorted(with_points, key=lambda s: (bool(s.get("labels")), s["id"]))
    return sorted(s["id"] for s in ranked[:MAX_METRIC_SERIES])


async def _events(params: dict[str, str], fetch: Fetch) -> None:
    if not params.get("captures"):
        return
    query = {
        "captures": params["captures"],
        "sort": "duration",
        "descending": "true",
        "limit": str(EVENTS_PAGE),
        "offset": "0",
    }
    query |= {k: params[k] for k in ("kind", "name") if params.get(k)}
    await fetch(_url("/api/events", query))
