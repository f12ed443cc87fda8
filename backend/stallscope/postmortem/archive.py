"""The postmortem as one zip: `postmortem.md`, `postmortem.html` and `images/`, as the Markdown
links them (the same layout the vendor bundle uses)."""

from __future__ import annotations

import io
import zipfile

from stallscope.postmortem.model import Postmortem


def postmortem_zip(postmortem: Postmortem) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("postmortem.md", postmortem.markdown)
        archive.writestr("postmortem.html", postmortem.html)
        for name, svg in sorted(postmortem.images.items()):
            archive.writestr(f"images/{name}", svg)
    return buffer.getvalue()
