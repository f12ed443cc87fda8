"""JSON bodies holding a flame or diff tree, however deep the tree nests.

The standard library's C encoder recurses once per nested container and raises RecursionError
near the interpreter's recursion limit: a tree node is a dict and its children a list, so about 500
levels is its end, and pydantic's serialiser recurses as well. Trees taller than `SHALLOW_LEVELS`
are written here with an explicit stack, and every subtree short enough is still handed to the C
encoder whole, so a deep answer costs a little more than a shallow one and a shallow one nothing.
"""

from __future__ import annotations

import json
from typing import Any

SHALLOW_LEVELS = 200
"""Tree levels the C encoder is given at once: 400 nested containers, well inside the recursion
limit even from a request handler already some 100 frames deep."""


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def tree_payload_json(payload: dict[str, Any], tree: dict[str, Any], height: int) -> bytes:
    """`payload` with `tree` added as "root", UTF-8 encoded; `height` is the tree's levels below its root.

    Frame names that were not valid UTF-8 went in as surrogate escapes and come out as their bytes.
    """
    if height < SHALLOW_LEVELS:
        body = _dumps({**payload, "root": tree})
    else:
        head = _dumps(payload)
        body = head[:-1] + ("," if payload else "") + '"root":' + tree_json(tree) + "}"
    return body.encode("utf-8", "surrogateescape")


def tree_json(root: dict[str, Any]) -> str:
    """One `{..., "children": [...]}` tree as compact JSON, without recursion."""
    heights = _heights(root)
    parts: list[str] = []
    pending: list[dict[str, Any] | str] = [root]  # nodes to write, and the text that closes them
    while pending:
        item = pending.pop()
        if isinstance(item, str):
            parts.append(item)
            continue
        if heights[id(item)] < SHALLOW_LEVELS:
            parts.append(_dumps(item))
            continue
        fields = {key: value for key, value in item.items() if key != "children"}
        head = _dumps(fields)
        parts.append(head[:-1] + ("," if fields else "") + '"children":[')
        pending.append("]}")
        children: list[dict[str, Any]] = item["children"]
        for i in range(len(children) - 1, -1, -1):
            pending.append(children[i])
            if i:
                pending.append(",")
    return "".join(parts)


def _heights(root: dict[str, Any]) -> dict[int, int]:
    """Levels below each node (by `id`), in one pass down and one back up."""
    order: list[dict[str, Any]] = [root]
    parents: list[int] = [-1]
    i = 0
    while i < len(order):
        for child in order[i]["children"]:
            order.append(child)
            parents.append(i)
        i += 1
    height = [0] * len(order)
    for j in range(len(order) - 1, 0, -1):
        above = parents[j]
        if height[j] >= height[above]:
            height[above] = height[j] + 1
    return {id(node): h for node, h in zip(order, height, strict=True)}
