"""A flame graph as an icicle (root on top), with the frames a finding matched in magenta.

Input is the pruned tree the flame-graph API sends (`{name, value, kind, children}`); nodes too
narrow to see are left out with their subtrees, so the file stays a few hundred rectangles
whatever the capture held. Each rectangle carries a tooltip with its weight and share.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from stallscope.kit.units import weight_text
from stallscope.postmortem.svg.canvas import (
    FONT_SIZE,
    attr,
    document,
    fit,
    label,
    number,
    stable_fraction,
    text_of,
)

WIDTH = 1200.0
ROW = 17.0
MARGIN = 10.0
HEADER = 48.0
MIN_WIDTH_PX = 0.6
"""Narrower nodes are invisible at this size: they and their subtrees are not drawn."""
MATCH_FILL = "#d21bd2"
"""flamegraph.pl's search colour."""
FIXED_FILLS = {"root": "#d9d9d9", "process": "#b7c7d9", "other": "#e6e6e6", "deeper": "#e6e6e6"}
UNMATCHED_KINDS = frozenset({"root", "other", "deeper"})
"""Nodes standing for a sum, not a frame: a search never matches them."""


@dataclass(frozen=True, slots=True)
class FlameImage:
    svg: bytes
    rects: int


def matched_share(root: dict[str, Any], matches: Callable[[str], bool]) -> float:
    """Weight under the outermost matched frames as a share of the root: what the flame graph's
    search reports as the matched share (a stack counts once however many of its frames match)."""
    total = int(root.get("value", 0))
    matched = 0
    pending = [root]
    while pending:
        node = pending.pop()
        if str(node.get("kind", "")) not in UNMATCHED_KINDS and matches(str(node.get("name", ""))):
            matched += int(node.get("value", 0))
            continue
        pending.extend(node.get("children", []))
    return matched / total if total else 0.0


def _fill(name: str, kind: str) -> str:
    if kind in FIXED_FILLS:
        return FIXED_FILLS[kind]
    shade = stable_fraction(name)
    if kind == "kernel":  # orange
        return f"rgb({220 + int(30 * shade)},{120 + int(50 * shade)},{40 + int(30 * shade)})"
    if kind == "jit":  # green
        return f"rgb({60 + int(50 * shade)},{180 + int(50 * shade)},{60 + int(40 * shade)})"
    return f"rgb({225 + int(30 * shade)},{70 + int(110 * shade)},{50 + int(20 * shade)})"  # red-yellow


def value_text(value: int, unit: str) -> str:
    """A node's weight as the views and commands write it (`kit.units.weight_text`)."""
    return weight_text(value, unit)


def render_flame(
    root: dict[str, Any],
    *,
    title: str,
    subtitle: str,
    unit: str,
    matches: Callable[[str], bool],
    name_of: Callable[[str], str] = lambda name: name,
) -> FlameImage:
    """The tree drawn `WIDTH` wide; `matches` picks the highlighted frames by their stored name and
    `name_of` gives the text shown for a name (the postmortem's redaction)."""
    total = int(root.get("value", 0))
    scale = (WIDTH - 2 * MARGIN) / total if total else 0.0
    body: list[str] = []
    depth_seen = 0
    rects = 0
    pending: list[tuple[dict[str, Any], float, int]] = [(root, MARGIN, 0)]  # node, x, depth
    while pending:
        node, x, depth = pending.pop()
        value = int(node.get("value", 0))
        width = value * scale
        if width < MIN_WIDTH_PX:
            continue
        name = str(node.get("name", ""))
        kind = str(node.get("kind", "user"))
        hit = kind not in UNMATCHED_KINDS and matches(name)
        y = HEADER + depth * ROW
        depth_seen = max(depth_seen, depth)
        shown = name_of(name)
        share = value / total if total else 0.0
        tip = f"{shown} ({value_text(value, unit)}, {share * 100:.2f}%)"
        fill = MATCH_FILL if hit else _fill(name, kind)
        rects += 1
        body.append(
            f'<g><title>{text_of(tip)}</title><rect x="{number(x)}" y="{number(y)}" width="{number(width)}" '
            f'height="{number(ROW - 1)}" fill="{attr(fill)}" rx="2"/>'
            + (
                label(x + 3, y + ROW - 5, text, fill="#fff" if hit else "#000")
                if (text := fit(shown, width - 6))
                else ""
            )
            + "</g>"
        )
        child_x = x
        for child in node.get("children", []):
            pending.append((child, child_x, depth + 1))
            child_x += int(child.get("value", 0)) * scale
    height = HEADER + (depth_seen + 1) * ROW + MARGIN
    header = [
        label(MARGIN, 18, title, size=FONT_SIZE + 3),
        label(MARGIN, 36, subtitle, fill="#444"),
    ]
    return FlameImage(document(WIDTH, height, title, header + body), rects)
