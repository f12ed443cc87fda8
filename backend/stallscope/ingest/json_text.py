"""`json.loads` for text from an upload, where every way of not being usable JSON is a ValueError.

The decoder already raises ValueError for broken text and for integers of more than 4,300 digits,
but RecursionError for arrays or objects nested past the interpreter's recursion limit (`[[[[...`):
no capture nests that deep, so the importers treat it like any other bad JSON.
"""

from __future__ import annotations

import json
from typing import Any


class TooDeep(ValueError):
    """JSON nested too deeply for the decoder."""


def loads(text: str | bytes) -> Any:
    """The value `text` holds; ValueError (UnicodeDecodeError for bytes that are not UTF-8 is one too)
    for anything that is not one JSON value."""
    try:
        return json.loads(text)
    except RecursionError:
        raise TooDeep("the JSON is nested too deeply") from None
