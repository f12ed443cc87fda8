"""Flame-tree JSON without recursion: the same document the standard library writes, at any depth."""

from __future__ import annotations

import json
from typing import Any

import pytest

from stallscope.flame.tree_json import SHALLOW_LEVELS, tree_json, tree_payload_json


def node(name: str, *children: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"name": name, "value": 1, "samples": 1, "kind": "user", "children": list(children), **extra}


def chain(depth: int, leaf: dict[str, Any]) -> dict[str, Any]:
    """`depth` nested frames above `leaf`, built in a loop."""
    top = leaf
    for i in range(depth - 1, -1, -1):
        top = node(f"f{i}", top)
    return top


def test_a_tree_taller_than_the_c_encoder_hands_it_reads_back_the_same() -> None:
    # Tall enough for the explicit stack, short enough for json.loads to check it.
    wide = node("wide", *(node(f"w{i}", node("x")) for i in range(50)), truncated=True)
    tree = node("all", chain(SHALLOW_LEVELS + 50, node("leaf", name_tail="<&\u202e\x01")), wide)
    text = tree_json(tree)
    assert json.loads(text) == tree
    payload = {"total": 7, "focus": ["a"], "unit": "ns"}
    body = tree_payload_json(payload, tree, SHALLOW_LEVELS + 52)
    assert json.loads(body) == {**payload, "root": tree}
    assert tree_payload_json(payload, wide, 2) == json.dumps(
        {**payload, "root": wide}, separators=(",", ":"), ensure_ascii=False
    ).encode("utf-8")


def test_a_100000_level_tree_is_written_where_the_standard_library_gives_up() -> None:
    depth = 100_000
    tree = chain(depth, node("leaf"))
    with pytest.raises(RecursionError):
        json.dumps(tree)
    text = tree_json(tree)
    head = '{"name":"f0","value":1,"samples":1,"kind":"user","children":[{"name":"f1",'
    assert text.startswith(head)
    assert text.endswith('{"name":"leaf","value":1,"samples":1,"kind":"user","children":[]}' + "]}" * depth)
    assert text.count('"name":') == depth + 1


def test_names_that_were_not_utf_8_come_back_as_their_bytes() -> None:
    tree = node("all", node("bad\udcff"))  # a byte 0xff decoded with surrogateescape
    assert b"bad\xff" in tree_payload_json({}, tree, 1)
    deep = chain(SHALLOW_LEVELS + 1, node("bad\udcff"))
    assert b"bad\xff" in tree_payload_json({}, deep, SHALLOW_LEVELS + 1)
