"""Trees written straight to JSON text: the document the dicts would give, siblings in name order, at
any depth, with names that were not UTF-8 written back as their bytes."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest

from stallscope.analysis.tree_text import CHILDREN, TRUNCATED, assemble, layout, node_text, number_texts
from stallscope.flame.tree_json import payload_with_tree

pytestmark = pytest.mark.storage_neutral


def node(name: str, *children: dict[str, Any], value: int = 1, **extra: Any) -> dict[str, Any]:
    return {"name": name, "value": value, "children": list(children), **extra}


def written(root: dict[str, Any]) -> str:
    """`root` (children in any order, a folded child under "folded") laid out and assembled, its
    nodes handed over in level order as the views hand them."""
    order: list[dict[str, Any]] = [root]
    above, depths = [-1], [0]
    i = 0
    while i < len(order):
        for child in order[i]["children"]:
            order.append(child)
            above.append(i)
            depths.append(depths[i] + 1)
        i += 1
    names = sorted({n["name"] for n in order})
    rank = {name: i for i, name in enumerate(names)}
    folded = {i: node_text(n["folded"], ',"value":0') for i, n in enumerate(order) if "folded" in n}
    tree = layout(
        np.array(above, dtype=np.int64),
        np.array(depths, dtype=np.int64),
        np.array([rank[n["name"]] for n in order], dtype=np.int64),
        names,
    )
    values = number_texts(np.array([n["value"] for n in order], dtype=np.int64))
    opens = [
        f'{start},"value":{value}{TRUNCATED if n.get("truncated") else ""}{CHILDREN}'
        for start, value, n in zip(tree.starts, values, order, strict=True)
    ]
    return assemble(tree, opens, folded)


def expected(tree: dict[str, Any]) -> dict[str, Any]:
    """What the text must read back as: children sorted by name (stably), the folded child last."""
    children = [expected(c) for c in sorted(tree["children"], key=lambda c: c["name"])]
    if "folded" in tree:
        children.append({"name": tree["folded"], "value": 0, "children": []})
    out = {"name": tree["name"], "value": tree["value"], "children": children}
    if tree.get("truncated"):
        out["truncated"] = True
    return out


def chain(depth: int, leaf: dict[str, Any]) -> dict[str, Any]:
    top = leaf
    for i in range(depth - 1, -1, -1):
        top = node(f"f{i}", top)
    return top


def test_siblings_come_in_name_order_with_folded_children_last_and_marks_kept() -> None:
    tree = node(
        "all",
        node("zeta", node("b"), node("a", value=7), folded="(other)"),
        node("alpha", node("x", truncated=True, folded="(deeper)"), truncated=True),
        node("alpha", value=3),  # two siblings may share a name (frames of different kinds): order kept
        node('mid<&\u202e\x01"\\'),
        value=12,
    )
    text = written(tree)
    assert json.loads(text) == expected(tree)
    assert [c["value"] for c in json.loads(text)["children"][:2]] == [1, 3]
    # Wide and shallow (found a level at a time, not a node at a time): the same document.
    wide = node(
        "all", *(node(f"p{i % 7}", node("b", node("y"), node("x")), node("a"), value=i) for i in range(150))
    )
    assert json.loads(written(wide)) == expected(wide)


def test_a_tree_taller_than_any_encoder_nests_reads_back_the_same() -> None:
    tree = node("all", chain(400, node("leaf")), node("wide", *(node(f"w{i:02}") for i in range(50))))
    assert json.loads(written(tree)) == expected(tree)
    depth = 100_000
    deep = written(chain(depth, node("leaf")))
    assert deep.startswith('{"name":"f0","value":1,"children":[{"name":"f1","value":1,"children":[')
    assert deep.endswith('{"name":"leaf","value":1,"children":[]}' + "]}" * depth)


def test_names_that_were_not_utf_8_go_out_as_their_bytes() -> None:
    body = payload_with_tree({"total": 2}, written(node("all", node("bad\udcff"))))
    assert b'"name":"bad\xff"' in body
    assert body.startswith(b'{"total":2,"root":{"name":"all"')


def test_numbers_are_written_as_json_reads_them() -> None:
    values = np.array([0.0, -0.125, 1e-7, 123456789.5, 2.0], dtype=np.float64)
    assert [json.loads(t) for t in number_texts(values)] == values.tolist()
    assert number_texts(np.array([], dtype=np.int64)) == []
    assert number_texts(np.array([[1, 2], [3, 4]], dtype=np.int64)[:, 1]) == ["2", "4"]
