"""`index.html`: the viewer the front end builds, with the bundle's data written into it.

The front end's build makes one self-contained page (`dist/viewer/index.html`: every script and
style inline, a Content-Security-Policy that allows no network request) with one placeholder where
the data goes. The data is JSON inside a `<script type="application/json">`; writing every `<` as
`\\u003c` keeps a frame or comm name such as `</script>` from ending that element early.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from stallscope.kit.errors import Unavailable

PLACEHOLDER = "<!--stallscope-bundle-data-->"
VIEWER = Path("viewer") / "index.html"


def viewer_template(dist: Path) -> str:
    """The built viewer page, or a clear error when the front end has not been built."""
    path = dist / VIEWER
    try:
        template = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise Unavailable(
            f"the offline viewer ({VIEWER}) is not built, so a bundle cannot be made: build the front end "
            "(cd frontend && npm run build)"
        ) from None
    if template.count(PLACEHOLDER) != 1:
        raise Unavailable(
            f"the offline viewer ({VIEWER}) has no single data placeholder: rebuild the front end"
        )
    return template


def render_index(template: str, data: dict[str, Any]) -> str:
    """The viewer with `data` embedded."""
    payload = json.dumps(data, ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")
    return template.replace(PLACEHOLDER, payload)
