"""Which views a bundle shows: the standard set for the chosen captures, plus saved views.

A view is a console route (`/flame?incident=4&hosts=db7`), the same URL the console's own links use
(findings' evidence links are built the same way, `analysis/findings/detector.py`), so the offline
viewer opens it with the console's own page.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from urllib.parse import urlencode, urlsplit

from stallscope.bundle.repository import BundledCapture, TimeRange

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
    host_captures: tuple[int, ...] = ()
    """Flame graphs of one host: its captures with samples (what the page shows)."""


def kind_of(route: str) -> str | None:
    """The view kind a console route opens, or None for a page the bundle cannot show."""
    path = urlsplit(route).path
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
    snapshots: Sequence[int],
) -> list[BundleView]:
    """The incident page, the timeline, and per host its flame graph, heatmap and threads; the diff of
    each host against the baseline; events, metrics, snapshots and the config diff when there are any."""
    window = _window(span)
    views = [BundleView("incident", "Incident", f"/incidents/{incident_id}")]
    views.append(
        BundleView("timeline", "Timeline, every host", _route("/timeline", incident=incident_id, **window))
    )
    hosts = _hosts(captures)
    sampled = [h for h in hosts if any(c.host == h and c.sample_count for c in captures)]
    scheduled = [
        h for h in hosts if any(c.host == h and c.record_counts.get("events.off-cpu") for c in captures)
    ]
    for host in hosts:
        label = host or "no host"
        here = {"incident": incident_id, "hosts": host, **window}
        if host in sampled:
            ids = tuple(c.id for c in captures if c.host == host and c.sample_count)
            views.append(BundleView("flame", f"Flame graph · {label}", _route("/flame", **here), ids))
            views.append(BundleView("heatmap", f"Heatmap · {label}", _route("/heatmap", **here)))
        if host in scheduled:
            views.append(BundleView("threads", f"Thread states · {label}", _route("/threads", **here)))
    views.extend(_diffs(incident_id, sampled, baseline_hosts, window))
    if any(c.record_counts.get("events") for c in captures):
        views.append(BundleView("events", "Events", _route("/events", incident=incident_id, **window)))
    if any(c.record_counts.get("metric_points") for c in captures):
        views.append(BundleView("metrics", "Metrics", _route("/metrics", incident=incident_id, **window)))
    for capture_id in snapshots:
        views.append(
            BundleView("snapshot", f"Snapshot · capture {capture_id}", f"/captures/{capture_id}/snapshot")
        )
    if len(snapshots) >= 2:
        a, b = snapshots[0], snapshots[1]
        views.append(
            BundleView("config-diff", "Config diff", f"/incidents/{incident_id}/config-diff?a={a}&b={b}")
        )
    return views


def _diffs(
    incident_id: int, sampled: list[str], baseline_hosts: Sequence[str], window: dict[str, str]
) -> list[BundleView]:
    if len(sampled) < 2:
        return []
    baseline = [h for h in baseline_hosts if h in sampled] or sampled[:1]
    others = [h for h in sampled if h not in baseline]
    label = ",".join(baseline)
    return [
        BundleView(
            "diff",
            f"Diff · {label} → {host}",
            _route(
                "/diff",
                incident=incident_id,
                **{"a.hosts": label, "b.hosts": host},
                **{f"a.{k}": v for k, v in window.items()},
                **{f"b.{k}": v for k, v in window.items()},
            ),
        )
        for host in others
    ]


def _hosts(captures: Sequence[BundledCapture]) -> list[str]:
    seen: dict[str, None] = {}
    for capture in captures:
        seen.setdefault(capture.host, None)
    return list(seen)


def _window(span: TimeRange) -> dict[str, str]:
    window = {}
    if span.start is not None:
        window["from"] = _instant(span.start)
    if span.end is not None:
        window["to"] = _instant(span.end)
    return window


def _instant(moment: datetime) -> str:
    return moment.isoformat().replace("+00:00", "Z")


def _route(path: str, **params: object) -> str:
    return f"{path}?{urlencode({k: str(v) for k, v in params.items() if v is not None and v != ''})}"
