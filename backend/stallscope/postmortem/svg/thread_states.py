"""Per-thread state bars: each thread's wall time split into running, runnable, sleeping (S),
uninterruptible (D), other and unknown, as the threads view draws them, on a 0-100% axis."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from stallscope.kit.units import duration_text
from stallscope.postmortem.svg.canvas import document, fit, label, line, number, text_of

STATE_FILLS: dict[str, tuple[str, str]] = {
    "running": ("#3c8d2f", "running"),
    "runnable": ("#e0a526", "runnable (waiting for a CPU)"),
    "sleeping": ("#7fa7d6", "sleeping (S)"),
    "uninterruptible": ("#c0392b", "uninterruptible (D)"),
    "other": ("#8e7cc3", "other"),
    "unknown": ("#cccccc", "unknown"),
}
"""In the threads view's order, with the legend's words."""
WIDTH = 960.0
LABEL_WIDTH = 230.0
RIGHT = 90.0
BAR = 14.0
ROW = 20.0
TOP = 64.0


@dataclass(frozen=True, slots=True)
class ThreadBar:
    label: str
    wall_ns: int
    state_ns: Mapping[str, int]
    highlighted: bool = False
    """A thread the finding names: drawn with its label in bold."""


def render_thread_states(bars: Sequence[ThreadBar], *, title: str, subtitle: str) -> bytes:
    plot = WIDTH - LABEL_WIDTH - RIGHT
    body = [label(10, 18, title, size=14), label(10, 36, subtitle, fill="#444")]
    x = LABEL_WIDTH
    for fill, words in STATE_FILLS.values():  # the legend
        body.append(f'<rect x="{number(x)}" y="44" width="10" height="10" fill="{fill}"/>')
        body.append(label(x + 14, 53, words, size=10))
        x += 18 + len(words) * 6.2
    for i, bar in enumerate(bars):
        y = TOP + i * ROW
        name = fit(bar.label, LABEL_WIDTH - 16)
        body.append(label(LABEL_WIDTH - 8, y + BAR - 3, name, anchor="end", bold=bar.highlighted))
        left = LABEL_WIDTH
        for state, (fill, words) in STATE_FILLS.items():
            part = bar.state_ns.get(state, 0)
            if part <= 0 or bar.wall_ns <= 0:
                continue
            width = plot * part / bar.wall_ns
            tip = f"{bar.label}: {words} {part / bar.wall_ns * 100:.1f}% ({duration_text(part)})"
            body.append(
                f'<rect x="{number(left)}" y="{number(y)}" width="{number(width)}" height="{number(BAR)}" '
                f'fill="{fill}"><title>{text_of(tip)}'
                "</title></rect>"
            )
            left += width
        wall = duration_text(bar.wall_ns)
        body.append(label(LABEL_WIDTH + plot + 6, y + BAR - 3, wall, size=10, fill="#444"))
    axis_y = TOP + len(bars) * ROW + 4
    body.append(line(LABEL_WIDTH, axis_y, LABEL_WIDTH + plot, axis_y))
    for pct in (0, 25, 50, 75, 100):
        tick_x = LABEL_WIDTH + plot * pct / 100
        body.append(line(tick_x, axis_y, tick_x, axis_y + 4))
        body.append(label(tick_x, axis_y + 16, f"{pct}%", size=10, anchor="middle"))
    caption = "share of each thread's observed wall time"
    body.append(label(LABEL_WIDTH + plot / 2, axis_y + 30, caption, size=10, anchor="middle", fill="#444"))
    return document(WIDTH, axis_y + 40, title, body)
