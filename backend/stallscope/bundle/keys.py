"""The key a bundle files each recorded API answer under, shared with the offline viewer.

The viewer (`frontend/src/bundle/bundleKey.ts`) looks answers up by the URL its pages request; the
exporter records them by the URL it asked. Both reduce a URL to its decoded path and its decoded
query pairs sorted by key then value, so parameter order and percent-encoding (`%2C` or `,`) do not
matter.
"""

from __future__ import annotations

from urllib.parse import parse_qsl, unquote, urlsplit


def response_key(url: str) -> str:
    """`/api/flame?max_nodes=5&captures=3%2C4` → `/api/flame?captures=3,4&max_nodes=5`."""
    parts = urlsplit(url)
    pairs = sorted(parse_qsl(parts.query, keep_blank_values=True))
    path = unquote(parts.path)
    if not pairs:
        return path
    return path + "?" + "&".join(f"{key}={value}" for key, value in pairs)
