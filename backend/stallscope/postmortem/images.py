"""The evidence images of one confirmed finding, read from the views' own services and drawn as SVG.

Each image draws the data of a view the finding links to, read the way that view reads it (the
flame graph's tree, the threads view's accounting, the metrics view's buckets), so the picture in
the postmortem and the view behind its short link show the same numbers.

- a flame graph of the finding's flame link (or the host's CPU samples when it has none), the
  matched frames (the link's search term) in magenta;
- thread-state bars where the evidence is about threads' time: a threads link, or blocked time;
- a metric line for each metric link (at most `MAX_METRICS`).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import cast

from sqlalchemy.orm import Session

from stallscope.analysis.findings.finding import Finding, ViewLink
from stallscope.analysis.thread_states import ThreadStates
from stallscope.flame import service as flame_service
from stallscope.flame.schemas import FlameSource, SampleFilter
from stallscope.kit.errors import ServiceError
from stallscope.metrics import service as metrics_service
from stallscope.metrics.schemas import SeriesOut
from stallscope.postmortem import repository
from stallscope.postmortem.model import Image
from stallscope.postmortem.svg.flame import matched_share, render_flame, value_text
from stallscope.postmortem.svg.metric_line import MetricPoint, render_metric_line
from stallscope.postmortem.svg.thread_states import ThreadBar, render_thread_states
from stallscope.postmortem.when import utc
from stallscope.threads import service as threads_service

Redact = Callable[[str], str]

FLAME_NODES = 300
"""Frames kept by the flame graph's pruning: a readable image of a few hundred rectangles."""
FLAME_DEPTH = 64
MAX_THREADS = 12
MAX_METRICS = 2
METRIC_BUCKETS = 200
SOURCES = ("samples", "off-cpu", "proc-stack")


def finding_images(
    session: Session, incident_id: int, finding: Finding, number: int, r: Redact
) -> list[Image]:
    images = [
        _flame(session, incident_id, finding, number, r),
        _threads(session, incident_id, finding, number, r),
    ]
    metric_links = [link for link in _links(finding) if link.path == "/metrics"][:MAX_METRICS]
    for i, link in enumerate(metric_links, 1):
        suffix = "" if len(metric_links) == 1 else f"-{i}"
        images.append(_metric(session, incident_id, finding, number, link, suffix, r))
    return [image for image in images if image is not None]


def _links(finding: Finding) -> list[ViewLink]:
    """The finding's view, then its evidence's, each once."""
    links: list[ViewLink] = []
    for link in [finding.view, *(e.view for e in finding.evidence)]:
        if link is not None and link not in links:
            links.append(link)
    return links


def _first(finding: Finding, path: str) -> ViewLink | None:
    return next((link for link in _links(finding) if link.path == path), None)


def _hosts(link: ViewLink | None, finding: Finding) -> list[str]:
    named = dict(link.params).get("hosts", "") if link else ""
    return [h for h in named.split(",") if h] or list(finding.hosts)


def _instant(value: str | None) -> datetime | None:
    """A view's `from`/`to`: ISO 8601 UTC; capture-clock seconds (`12.5s`) are not an instant."""
    if not value or value.endswith("s"):
        return None
    try:
        return datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None


def _int(value: str | None) -> int | None:
    return int(value) if value and value.lstrip("-").isdigit() else None


def _flame(session: Session, incident_id: int, finding: Finding, number: int, r: Redact) -> Image | None:
    link = _first(finding, "/flame")
    hosts = _hosts(link, finding)
    capture_ids = repository.parsed_capture_ids(session, incident_id, hosts)
    if not capture_ids:
        return None
    params = dict(link.params) if link else {}
    source = params.get("source", "samples")
    flt = SampleFilter(
        capture_ids=capture_ids,
        source=cast(FlameSource, source if source in SOURCES else "samples"),
        state=params.get("state") or None,
        pid=_int(params.get("pid")),
        tid=_int(params.get("tid")),
        comm=params.get("comm") or None,
        start=_instant(params.get("from")),
        end=_instant(params.get("to")),
    )
    try:
        graph = flame_service.flame_graph(session, flt, [], FLAME_NODES, FLAME_DEPTH)
    except ServiceError:
        return None
    if graph.total == 0:
        return None
    term = params.get("q", "").lower()
    if term:
        what = f"frames matching “{r(params['q'])}” in magenta"

        def matches(name: str) -> bool:
            return term in name.lower()
    else:
        comms = {t.comm for t in finding.threads}
        what = "the threads the finding names in magenta"

        def matches(name: str) -> bool:
            return name in comms

    if flt.source == "off-cpu":
        shown = "Off-CPU time" + (f" in state {flt.state}" if flt.state else "") + ", µs blocked"
    else:
        shown = f"CPU samples ({graph.event or 'every event'})"
    share = matched_share(graph.root, matches)
    subtitle = (
        f"{what}: {share * 100:.1f}% of the whole host's ({value_text(graph.total, graph.unit)}, every "
        f"thread); the heaviest {FLAME_NODES} frames, the rest folded into (other)"
    )
    image = render_flame(
        graph.root,
        title=r(f"Finding {number}: {finding.title} · {shown} on {', '.join(hosts)}"),
        subtitle=r(subtitle),
        unit=graph.unit,
        matches=matches,
        name_of=r,
    )
    caption = r(f"{shown} on {', '.join(hosts)}; {subtitle}")
    return Image(f"finding-{number}-flame.svg", caption, image.svg)


def _threads(session: Session, incident_id: int, finding: Finding, number: int, r: Redact) -> Image | None:
    link = _first(finding, "/threads")
    flame = _first(finding, "/flame")
    blocked = flame is not None and dict(flame.params).get("source") == "off-cpu"
    if link is None and not blocked:
        return None
    hosts = _hosts(link or flame, finding)
    by_source: dict[str, list[tuple[str, ThreadStates]]] = {}
    host_of = {c.id: c.host for c in repository.captures(session, incident_id)}
    for capture_id in repository.parsed_capture_ids(session, incident_id, hosts):
        source, threads = threads_service.capture_threads(session, capture_id)
        by_source.setdefault(source, []).extend((host_of.get(capture_id, ""), t) for t in threads)
    source = "sched" if by_source.get("sched") else "proc-sampler"
    rows = [(host, t) for host, t in by_source.get(source, []) if t.wall_ns > 0]
    if not rows:
        return None
    named = {(t.host, t.tid) for t in finding.threads if t.tid is not None}
    linked_tid = _int(dict(link.params).get("tid")) if link else None

    def highlighted(host: str, t: ThreadStates) -> bool:
        return (host, t.tid) in named or t.tid == linked_tid

    def waiting(t: ThreadStates) -> int:
        return t.wall_ns - t.state_ns.get("running", 0) - t.state_ns.get("unknown", 0)

    rows.sort(key=lambda row: (not highlighted(*row), -waiting(row[1]), row[1].tid))
    several = len({host for host, _ in rows}) > 1
    bars = [
        ThreadBar(
            r(f"{t.comm} ({t.tid})" + (f" on {host}" if several else "")),
            t.wall_ns,
            dict(t.state_ns),
            highlighted(host, t),
        )
        for host, t in rows[:MAX_THREADS]
    ]
    how = (
        "from scheduler events"
        if source == "sched"
        else "from the /proc sampler (running includes runnable: the sampler cannot tell them apart)"
    )
    subtitle = (
        f"{how}; the threads the finding names in bold, then the most waiting; {len(rows)} threads in all"
    )
    title = f"Finding {number}: {finding.title} · thread states on {', '.join(hosts)}"
    svg = render_thread_states(bars, title=r(title), subtitle=r(subtitle))
    caption = r(f"Thread states on {', '.join(hosts)}, {subtitle}")
    return Image(f"finding-{number}-threads.svg", caption, svg)


def _series(candidates: list[SeriesOut], name: str, labels: str) -> SeriesOut | None:
    """The series a metrics link shows: its name, and every label the link names (none: unlabelled first)."""
    wanted = dict(part.split("=", 1) for part in labels.split(",") if "=" in part)
    named = [s for s in candidates if s.name == name]
    fits = [s for s in named if all(str(s.labels.get(k)) == v for k, v in wanted.items())]
    if not wanted:
        fits.sort(key=lambda s: len(s.labels))
    return fits[0] if fits else None


def _metric(
    session: Session, incident_id: int, finding: Finding, number: int, link: ViewLink, suffix: str, r: Redact
) -> Image | None:
    params = dict(link.params)
    name = params.get("show") or params.get("q") or ""
    hosts = _hosts(link, finding)
    capture_ids = repository.parsed_capture_ids(session, incident_id, hosts)
    if not name or not capture_ids:
        return None
    series = _series(metrics_service.list_series(session, capture_ids, None), name, params.get("labels", ""))
    if series is None:
        return None
    drawn = metrics_service.series_points(session, series.id, None, None, METRIC_BUCKETS, None)
    if not drawn.points:
        return None
    first = drawn.points[0].ts
    points = [
        MetricPoint((p.ts - first).total_seconds(), p.avg, p.min, p.max) for p in drawn.points if p.count > 0
    ]
    labels = ",".join(f"{k}={v}" for k, v in sorted(series.labels.items()))
    shown = f"{series.name}{{{labels}}}" if labels else series.name
    how = "per-second rate" if drawn.drawn == "rate" else "values"
    bucket = f"{drawn.bucket_ns / 1e9:.3g} s" if drawn.bucket_ns >= 1e9 else f"{drawn.bucket_ns / 1e6:.3g} ms"
    subtitle = f"{how} from {utc(first)}, {bucket} buckets: line the average, band min to max"
    title = f"Finding {number}: {shown} on {series.host or ', '.join(hosts)}"
    svg = render_metric_line(points, title=r(title), subtitle=r(subtitle), unit=r(drawn.unit or ""))
    caption = r(f"{shown} on {series.host or ', '.join(hosts)}, {subtitle}")
    return Image(f"finding-{number}-metric{suffix}.svg", caption, svg)
