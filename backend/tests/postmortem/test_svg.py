"""The evidence images' renderers on hand-written data: well-formed standalone SVG, the matched
frames highlighted, narrow frames left out, labels cut to fit, escaping of what captures hold."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from datetime import UTC, datetime

import pytest

from stallscope.postmortem.svg.canvas import fit
from stallscope.postmortem.svg.flame import MATCH_FILL, matched_share, render_flame
from stallscope.postmortem.svg.metric_line import MetricPoint, render_metric_line
from stallscope.postmortem.svg.thread_states import ThreadBar, render_thread_states
from stallscope.postmortem.when import relative

pytestmark = pytest.mark.storage_neutral

SVG = "{http://www.w3.org/2000/svg}"


def node(name: str, value: int, kind: str = "user", *children: dict[str, object]) -> dict[str, object]:
    return {"name": name, "value": value, "kind": kind, "children": list(children)}


def parse(svg: bytes) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    assert float(root.attrib["width"]) > 0
    assert float(root.attrib["height"]) > 0
    assert root.find(f"{SVG}title") is not None
    return root


def texts(root: ET.Element) -> list[str]:
    return [t.text or "" for t in root.iter(f"{SVG}text")]


def test_a_flame_graph_highlights_the_matched_frames_and_drops_what_cannot_be_seen() -> None:
    # all > app > main > [rwsem_down_write_slowpath (60%) > __schedule, <work & "quoted"> (39%)],
    # and app > tiny, 0.35 px wide at this size
    tree = node(
        "all",
        10000,
        "root",
        node(
            "app",
            10000,
            "process",
            node(
                "main",
                9900,
                "user",
                node("rwsem_down_write_slowpath", 6000, "kernel", node("__schedule", 6000, "kernel")),
                node('<work & "quoted">', 3900),
            ),
            node("tiny", 3),
        ),
    )
    assert matched_share(tree, lambda name: "rwsem_down" in name.lower()) == pytest.approx(0.6)
    image = render_flame(
        tree,
        title="Off-CPU time on db-7",
        subtitle="matched in magenta",
        unit="us",
        matches=lambda n: "rwsem" in n,
    )
    root = parse(image.svg)
    labels = texts(root)
    assert "rwsem_down_write_slowpath" in labels
    assert '<work & "quoted">' in labels  # escaped in the file, read back whole
    assert "tiny" not in labels
    assert image.rects == 6
    magenta = [r for r in root.iter(f"{SVG}rect") if r.attrib.get("fill") == MATCH_FILL]
    assert len(magenta) == 1
    assert float(magenta[0].attrib["width"]) == pytest.approx(1180 * 0.6, abs=0.1)
    shown = render_flame(tree, title="t", subtitle="", unit="us", matches=lambda n: False, name_of=str.upper)
    assert "RWSEM_DOWN_WRITE_SLOWPATH" in texts(parse(shown.svg))


def test_labels_are_cut_to_fit() -> None:
    assert fit("a_rather_long_frame_name", 1000) == "a_rather_long_frame_name"
    assert fit("a_rather_long_frame_name", 70) == "a_rather.."  # 10 characters of 6.8 px
    assert fit("abc", 10) == ""


def test_thread_bars_split_each_thread_by_state() -> None:
    bars = [
        ThreadBar(
            "query-7 (32530)",
            4_000_000_000,
            {"running": 1_000_000_000, "uninterruptible": 3_000_000_000},
            True,
        ),
        ThreadBar("batch\x01 (1)", 1_000_000_000, {"runnable": 500_000_000, "sleeping": 500_000_000}),
    ]
    root = parse(render_thread_states(bars, title="Thread states on db-7", subtitle="from scheduler events"))
    assert "query-7 (32530)" in texts(root)
    assert "batch? (1)" in texts(root)
    widths = {
        tip.text or "": float(r.attrib["width"])
        for r in root.iter(f"{SVG}rect")
        if (tip := r.find(f"{SVG}title")) is not None
    }
    d_bar = next(w for tip, w in widths.items() if tip.startswith("query-7") and "uninterruptible" in tip)
    run_bar = next(w for tip, w in widths.items() if tip.startswith("query-7") and "running" in tip)
    assert d_bar == pytest.approx(3 * run_bar, abs=0.2)
    assert "100%" in texts(root)


def test_a_metric_line_has_axes_with_units() -> None:
    points = [MetricPoint(i * 0.5, 10.0 + i, 9.0 + i, 11.0 + i) for i in range(9)]
    root = parse(render_metric_line(points, title="PSI on db-7", subtitle="from ...", unit="percent"))
    assert "percent" in texts(root)
    assert "seconds from the first point" in texts(root)
    polyline = next(root.iter(f"{SVG}polyline"))
    assert len(polyline.attrib["points"].split()) == 9
    frame = next(r for r in root.iter(f"{SVG}rect") if r.attrib.get("fill") == "none")
    top, bottom = float(frame.attrib["y"]), float(frame.attrib["y"]) + float(frame.attrib["height"])
    band = next(root.iter(f"{SVG}polygon")).attrib["points"].split()
    assert all(top <= float(xy.split(",")[1]) <= bottom for xy in band)  # the axis covers the maximum
    assert parse(render_metric_line([], title="empty", subtitle="", unit="")) is not None


def test_times_are_written_relative_to_the_start() -> None:
    start = datetime(2026, 11, 21, 8, 3, tzinfo=UTC)
    assert relative(datetime(2026, 11, 21, 9, 5, 4, tzinfo=UTC), start) == "T+1h 02m 04s"
    assert relative(datetime(2026, 11, 21, 8, 2, 48, tzinfo=UTC), start) == "T-12.000s"
    assert relative(datetime(2026, 11, 21, 8, 4, 30, 500000, tzinfo=UTC), start) == "T+1m 30.5s"
