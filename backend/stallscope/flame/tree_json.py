"""JSON bodies holding a flame or diff tree written as text (`analysis/tree_text.py`).

orjson encodes the answer's other fields; the tree is spliced in as "root" without being parsed or
encoded again. Frame names that were not valid UTF-8 come in as surrogate escapes: orjson refuses
them, so such a part goes through the standard library, and the text is encoded with
"surrogateescape", which writes them back as the bytes they stand for.
"""

from __future__ import annotations

import json
from typing import Any

import orjson


def _dumps(value: Any) -> bytes:
    try:
        return orjson.dumps(value)
    except orjson.JSONEncodeError:
        text = json.dumps(value, separators=(",", ":"), ensure_ascii=False)
        return text.encode("utf-8", "surrogateescape")


def payload_with_tree(payload: dict[str, Any], text: str) -> bytes:
    """`payload` with a tree already written as JSON text added as "root", UTF-8 encoded."""
    head = _dumps(payload)
    tree = text.encode("utf-8", "surrogateescape")
    return b"".join((head[:-1], b"," if payload else b"", b'"root":', tree, b"}"))
