"""Read the first JSON object of a JSON-lines head, for the importers' `detect`."""

from __future__ import annotations

from typing import Any

from stallscope.ingest.json_text import loads


def first_json_object(head: bytes) -> dict[str, Any] | None:
    """The object on the first non-blank line, if that line is whole and holds one; else None."""
    text = head.lstrip()
    if not text.startswith(b"{"):
        return None
    line, newline, _ = text.partition(b"\n")
    if not newline and len(head) >= 64 * 1024:
        return None  # the sniffed window cut the line
    try:
        obj = loads(line)
    except (ValueError, UnicodeDecodeError):
        return None
    return obj if isinstance(obj, dict) else None
