"""A sample's frame lines to its stack: the same stack wherever the lines the table has not seen yet
sit (at the leaf, in the middle, both), and none when one of them is not a frame line."""

from __future__ import annotations

import pytest

from stallscope.ingest.model import Frame, FrameKind
from stallscope.ingest.perf_script.naming import NamingOptions
from stallscope.ingest.perf_script.stacks import StackTable


def frame_line(address: int, name: str) -> bytes:
    return f"\t    {address:x} {name}+0x{address & 0xFF:x} (/usr/bin/svc)".encode()


def lines_of(names: list[str], base: int) -> list[bytes]:
    """Frame lines as perf prints them, leaf first, each at an address of its own."""
    return [frame_line(base + depth, name) for depth, name in enumerate(names)]


CALLERS = ["leaf", "inner", "middle", "outer", "main", "_start"]


def expected(names: list[str]) -> tuple[Frame, ...]:
    return tuple(Frame(name, FrameKind.USER) for name in reversed(names))


@pytest.mark.parametrize(
    "new_at",
    [
        pytest.param({0}, id="the leaf line new"),
        pytest.param({0, 1}, id="the two lines nearest the leaf new"),
        pytest.param({3}, id="a line in the middle new"),
        pytest.param({0, 3}, id="the leaf and a line in the middle new"),
        pytest.param(set(range(len(CALLERS))), id="every line new"),
    ],
)
def test_the_stack_is_the_same_wherever_the_new_lines_are(new_at: set[int]) -> None:
    table = StackTable(NamingOptions())
    known = lines_of(CALLERS, 0x1000)
    assert table.stack_of_lines(list(known), java=False) == expected(CALLERS)
    mixed = [
        frame_line(0x9000 + depth, name) if depth in new_at else line
        for depth, (name, line) in enumerate(zip(CALLERS, known, strict=True))
    ]
    assert mixed != known
    stack = table.stack_of_lines(mixed, java=False)
    assert stack == expected(CALLERS)
    assert stack is table.stack_of_lines(list(known), java=False), "one interned stack for equal frames"


@pytest.mark.parametrize("bad_at", [0, 1, 3, len(CALLERS) - 1], ids=lambda at: f"line {at} from the leaf")
def test_a_line_that_is_not_a_frame_gives_no_stack(bad_at: int) -> None:
    table = StackTable(NamingOptions())
    lines = lines_of(CALLERS, 0x2000)
    lines[bad_at] = b"not a frame line at all"
    assert table.stack_of_lines(lines, java=False) is None
    # The lines before it were learnt, and a stack of good lines still comes out whole.
    assert table.stack_of_lines(lines_of(CALLERS, 0x2000), java=False) == expected(CALLERS)
