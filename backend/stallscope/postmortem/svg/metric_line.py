"""A metric series as a line over time: the bucket averages, their min-max band, axes with units.

Time runs in seconds from the series' first point (its UTC instant is in the subtitle), so the
image reads the same whatever the clock of the host was.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from stallscope.postmortem.svg.canvas import document, label, line, nice_ticks, number, tick_text

WIDTH = 900.0
HEIGHT = 320.0
LEFT = 70.0
RIGHT = 20.0
TOP = 56.0
BOTTOM = 50.0
LINE = "#1f5fa8"
BAND = "#c9dcf2"


@dataclass(frozen=True, slots=True)
class MetricPoint:
    offset_s: float
    """Seconds after the series' first point."""
    avg: float
    low: float
    high: float


def render_metric_line(points: Sequence[MetricPoint], *, title: str, subtitle: str, unit: str) -> bytes:
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    body = [label(10, 18, title, size=14), label(10, 36, subtitle, fill="#444")]
    if not points:
        body.append(label(WIDTH / 2, TOP + plot_h / 2, "no points", anchor="middle", fill="#777"))
        return document(WIDTH, HEIGHT, title, body)
    t_end = max(max(p.offset_s for p in points), 1e-9)
    low = min(0.0, min(p.low for p in points))
    high = max(p.high for p in points)
    if high <= low:
        high = low + 1.0
    y_ticks = nice_ticks(low, high, cover=True)
    low, high = y_ticks[0], y_ticks[-1]

    def px(offset_s: float) -> float:
        return LEFT + plot_w * offset_s / t_end

    def py(value: float) -> float:
        return TOP + plot_h * (1 - (value - low) / (high - low))

    for value in y_ticks:
        y = py(value)
        body.append(line(LEFT, y, LEFT + plot_w, y, "#eee"))
        body.append(label(LEFT - 6, y + 4, tick_text(value), size=10, anchor="end"))
    for offset in nice_ticks(0.0, t_end, 8):
        x = px(offset)
        body.append(line(x, TOP + plot_h, x, TOP + plot_h + 4))
        body.append(label(x, TOP + plot_h + 16, f"{offset:g}", size=10, anchor="middle"))
    band = [f"{number(px(p.offset_s))},{number(py(p.high))}" for p in points]
    band += [f"{number(px(p.offset_s))},{number(py(p.low))}" for p in reversed(points)]
    body.append(f'<polygon points="{" ".join(band)}" fill="{BAND}" stroke="none"/>')
    trace = " ".join(f"{number(px(p.offset_s))},{number(py(p.avg))}" for p in points)
    body.append(f'<polyline points="{trace}" fill="none" stroke="{LINE}" stroke-width="1.5"/>')
    body.append(
        f'<rect x="{number(LEFT)}" y="{number(TOP)}" width="{number(plot_w)}" height="{number(plot_h)}" '
        'fill="none" stroke="#555"/>'
    )
    body.append(
        label(
            LEFT + plot_w / 2,
            HEIGHT - 12,
            "seconds from the first point",
            size=10,
            anchor="middle",
            fill="#444",
        )
    )
    body.append(label(14, TOP - 8, unit or "value", size=10, fill="#444"))
    return document(WIDTH, HEIGHT, title, body)
