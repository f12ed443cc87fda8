"""Text people send: refused with the field's name when it holds what no one types or can store.

PostgreSQL text cannot hold NUL or an unpaired surrogate (JSON can carry both as `\\u0000` and
`\\ud800`), so such a value used to reach the database and answer 500. Control characters in a title
or a file name are never typed by a person and make trouble wherever the value is shown or put in
a header. Names of *captured* data (frame and process names a filter or zoom path refers to) may
hold control characters, since captures do; they only refuse what cannot be stored.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Annotated, Any

from pydantic import AfterValidator

UNSTORABLE = re.compile("[\x00\ud800-\udfff]")
CONTROL_IN_LINE = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff]")
CONTROL_IN_TEXT = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")
"""Text that may span lines keeps tab, line feed and carriage return."""
BIDI_CONTROLS = re.compile("[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def describe(char: str) -> str:
    code = f"U+{ord(char):04X}"
    if "\ud800" <= char <= "\udfff":
        return f"an unpaired surrogate ({code})"
    name = unicodedata.name(char, "")
    return f"the control character {code}" + (f" ({name})" if name else "")


def _checker(pattern: re.Pattern[str]) -> AfterValidator:
    def check(value: str) -> str:
        found = pattern.search(value)
        if found is not None:
            raise ValueError(f"contains {describe(found.group())}, which is not allowed here")
        return value

    return AfterValidator(check)


SingleLine = Annotated[str, _checker(CONTROL_IN_LINE)]
"""A title, name or file name: no control characters at all."""
MultiLine = Annotated[str, _checker(CONTROL_IN_TEXT)]
"""A summary or a note: line breaks and tabs, no other control characters."""
DataName = Annotated[str, _checker(UNSTORABLE)]
"""A name from a capture (frame, process): anything but NUL and unpaired surrogates."""


def first_unstorable(value: Any, path: str = "") -> str | None:
    """Where in a JSON value a string or key cannot be stored, e.g. `meta.command[2]`; None if nowhere."""
    pending: list[tuple[Any, str]] = [(value, path)]
    while pending:
        item, where = pending.pop()
        if isinstance(item, str):
            if UNSTORABLE.search(item):
                return where or "value"
        elif isinstance(item, dict):
            for key, child in item.items():
                if isinstance(key, str) and UNSTORABLE.search(key):
                    return f"{where}.{key!a}" if where else ascii(key)
                child_path = f"{where}.{key}" if where else str(key)
                pending.append((child, child_path))
        elif isinstance(item, list):
            pending.extend((child, f"{where}[{i}]") for i, child in enumerate(item))
    return None


def strip_bidi_controls(value: str) -> str:
    """Drop the characters that reorder text, so `exe.txt` cannot display as `txt.exe`."""
    return BIDI_CONTROLS.sub("", value)


def download_name(name: str, fallback: str) -> str:
    """A file name for Content-Disposition: no control characters, and none of the characters that
    reorder text, so `evil\u202etxt.exe` cannot arrive looking like `evilexe.txt`."""
    cleaned = CONTROL_IN_LINE.sub("", strip_bidi_controls(name)).strip()
    return cleaned or fallback
