"""Which views a bundle shows: the standard set for the chosen captures, plus saved views.

A view is a console route (`/flame?incident=4&captures=3,4`), opened offline by the console's own
page. Standard views name their captures, so the page shows exactly the chosen ones without choosing
itself; the metrics view names its series once the series are known (`with_series`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from urllib.parse import urlencode, urlsplit

from stallscope.bundle.repository import BundledCapture, TimeRange
from stallscope.kit.units import utc_iso

KINDS = {
    "/flame": "flame",
    "/diff": "diff",
    "/threads": "threads",
    "/timeline": "timeline",
    "/heatmap": "heatmap",
    "/events": "events",
    "/metrics": "metrics",
}


@dataclass(frozen=True, slots=True)
class BundleView:
    kind: str
    title: str
    route: str
    """Path and query inside the console."""

    def with_series(self, series: Sequence[int]) -> BundleView:
        return replace(self, route=f"{self.route}&series={','.join(map(str, series))}")


def kind_of(route: str) -> str | None:
    """The view kind a console route opens, or None for a page the bundle cannot show."""
    path = urlsplit(route).path.rstrip("/")
    if path in KINDS:
        return KINDS[path]
    parts = path.strip("/").split("/")
    if len(parts) == 2 and parts[0] == "incidents" and parts[1].isdigit():
        return "incident"
    if len(parts) == 3 and parts[0] == "incidents" and parts[2] == "config-diff":
        return "config-diff"
    if len(parts) == 3 and parts[0] == "captures" and parts[2] == "snapshot":
        return "snapshot"
    return None


def standard_views(
    incident_id: int,
    captures: Sequence[BundledCapture],
    span: TimeRange,
    baseline_hosts: Sequence[str],
    snapshots: Sequence[tuple[int, int]],
    subset: bool,
) -> list[BundleView]:
    """The incident page and timeline; per host its flame graphs (CPU and off-CPU), heatmap and
    thread states; the diff of each host against the baseline; events, metrics, snapshots and the
    config diff when there are any. `subset`: only some of the incident's captures were chosen, so
    the timeline names them."""
    window = _window(span)
    base = {"incident": incident_id}
    everything = _ids(captures)
    views = [BundleView("incident", "Incident", f"/incidents/{incident_id}")]
    scope = {"captures": everything} if subset else {}
    views.append(BundleView("timeline", "Timeline", _route("/timeline", **base, **scope, **window)))
    hosts = _hosts(captures)
    for host in hosts:
        label = host or "no host"
        mine = [c for c in captures if c.host == host]
        sampled = _ids([c for c in mine if c.sample_count])
        blocked = _ids([c for c in mine if c.record_counts.get("events.off-cpu")])
        if sampled:
            route = _route("/flame", **base, captures=sampled, **window)
            views.append(BundleView("flame", f"CPU flame graph · {label}", route))
        if blocked:
            route = _route("/flame", **base, captures=blocked, source="off-cpu", **window)
            views.append(BundleView("flame", f"Off-CPU flame graph · {label}", route))
        if sampled or blocked:
            stream = "samples" if sampled else "off-cpu"
            route = _route("/heatmap", **base, captures=sampled or blocked, stream=stream)
            views.append(BundleView("heatmap", f"Heatmap · {label}", route))
        if blocked:
            route = _route("/threads", **base, captures=_ids(mine), **window)
            views.append(BundleView("threads", f"Thread states · {label}", route))
    views.extend(_diffs(incident_id, captures, hosts, baseline_hosts, window))
    with_events = _ids([c for c in captures if c.record_counts.get("events")])
    if with_events:
        views.append(BundleView("events", "Events", _route("/events", **base, captures=with_events)))
    if any(c.record_counts.get("metric_points") for c in captures):
        views.append(BundleView("metrics", "Metrics", _route("/metrics", **base, captures=everything)))
    for capture_id, _take in snapshots:
        views.append(
            BundleView("snapshot", f"Snapshot · capture {capture_id}", f"/captures/{capture_id}/snapshot")
        )
    if len(snapshots) >= 2:
        (a, a_take), (b, b_take) = snapshots[0], snapshots[1]
        route = (
            f"/incidents/{incident_id}/config-diff?{urlencode({'a': f'{a}:{a_take}', 'b': f'{b}:{b_take}'})}"
        )
        views.append(BundleView("config-diff", "Config diff", route))
    return views


def _diffs(
    incident_id: int,
    captures: Sequence[BundledCapture],
    hosts: list[str],
    baseline_hosts: Sequence[str],
    window: dict[str, str],
) -> list[BundleView]:
    sampled = {h: _ids([c for c in captures if c.host == h and c.sample_count]) for h in hosts}
    sampled = {h: ids for h, ids in sampled.items() if ids}
    if len(sampled) < 2:
        return []
    baseline = [h for h in baseline_hosts if h in sampled] or list(sampled)[:1]
    a = ",".join(sampled[h] for h in baseline)
    return [
        BundleView(
            "diff",
            f"Diff · {','.join(baseline)} → {host}",
            _route(
                "/diff",
                incident=incident_id,
                **{"a.captures": a, "b.captures": ids},
                **{f"a.{k}": v for k, v in window.items()},
                **{f"b.{k}": v for k, v in window.items()},
            ),
        )
        for host, ids in sampled.items()
        if host not in baseline
    ]


def _ids(captures: Sequence[BundledCapture]) -> str:
    return ",".join(str(c.id) for c in sorted(captures, key=lambda c: c.id))


def _hosts(captures: Sequence[BundledCapture]) -> list[str]:
    seen: dict[str, None] = {}
    for capture in captures:
        seen.setdefault(capture.host, None)
    return list(seen)


def _window(span: TimeRange) -> dict[str, str]:
    window = {}
    if span.start is not None:
        window["from"] = utc_iso(span.start)
    if span.end is not None:
        window["to"] = utc_iso(span.end)
    return window


def _route(path: str, **params: object) -> str:
    return f"{path}?{urlencode({k: str(v) for k, v in params.items() if v is not None and v != ''})}"
