"""Stable, URL-safe track ids: what a track is, never a database row id (re-parsing renumbers those).

An id names a host and what is drawn for it: `cpu:<host>:<event>`, `offcpu:<host>`,
`ev:<host>:<kind>` or `ev:<host>:<kind>:<name>`, `m:<host>:<metric>[:<labels as JSON>]`. Parts are
escaped so `:` splits them and `,` separates ids in a URL; the server only ever compares ids it
generated itself, so clients treat them as opaque strings.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

_ESCAPES = {"%": "%25", ":": "%3A", ",": "%2C"}


def _part(text: str) -> str:
    return "".join(_ESCAPES.get(ch, ch) for ch in text)


def cpu_id(host: str, event: str) -> str:
    return f"cpu:{_part(host)}:{_part(event)}"


def offcpu_id(host: str) -> str:
    return f"offcpu:{_part(host)}"


def events_id(host: str, kind: str, name: str | None = None) -> str:
    base = f"ev:{_part(host)}:{_part(kind)}"
    return base if name is None else f"{base}:{_part(name)}"


def metric_id(host: str, name: str, labels: Mapping[str, Any]) -> str:
    base = f"m:{_part(host)}:{_part(name)}"
    if not labels:
        return base
    return f"{base}:{_part(json.dumps(labels, sort_keys=True, separators=(',', ':'), ensure_ascii=False))}"


def split_ids(raw: str) -> list[str]:
    """A comma-separated `tracks=` value as ids, blanks and repeats dropped, order kept."""
    seen: dict[str, None] = {}
    for part in raw.split(","):
        if part.strip():
            seen.setdefault(part.strip(), None)
    return list(seen)
