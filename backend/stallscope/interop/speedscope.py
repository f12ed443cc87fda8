"""A flame-graph view as a speedscope file (https://www.speedscope.app/file-format-schema.json).

One `sampled` profile for the whole view, not one per thread: it is the same picture as our flame
graph and as the pprof and folded exports (thread names as root frames, the same total), and
speedscope's Left Heavy and Sandwich views then rank functions across every thread of the view,
which is what a reader looks at first. A per-thread profile is a focus away in the console.

Weights are the view's own, in the view's unit (`nanoseconds` of CPU for cpu-clock, `microseconds`
blocked for off-CPU, `none` for plain counts); kernel and JIT frames name their `file` as the pprof
export names their mapping, so frames of the same name in different places stay apart.
"""

from __future__ import annotations

import json
from typing import Any

from stallscope import __version__
from stallscope.interop.view import ViewFrame, ViewProfile

SCHEMA = "https://www.speedscope.app/file-format-schema.json"
UNITS = {"ns": "nanoseconds", "us": "microseconds", "samples": "none", "events": "none"}
FRAME_FILES = {"kernel": "[kernel.kallsyms]", "jit": "[jit]"}


def speedscope_document(profile: ViewProfile) -> dict[str, Any]:
    """The speedscope file as a JSON-ready dict."""
    frames: list[dict[str, str]] = []
    by_id: dict[int, int] = {}
    by_frame: dict[tuple[str, str], int] = {}

    def index_of(frame: ViewFrame) -> int:
        found = by_id.get(id(frame))
        if found is None:
            file = FRAME_FILES.get(frame.kind, "")
            found = by_frame.get((frame.name, file))
            if found is None:
                found = by_frame[(frame.name, file)] = len(frames)
                frames.append({"name": frame.name, "file": file} if file else {"name": frame.name})
            by_id[id(frame)] = found
        return found

    samples = [[index_of(f) for f in stack.frames] for stack in profile.stacks if stack.frames]
    weights = [stack.weight for stack in profile.stacks if stack.frames]
    return {
        "$schema": SCHEMA,
        "name": profile.name,
        "exporter": f"stallscope {__version__}",
        "activeProfileIndex": 0,
        "shared": {"frames": frames},
        "profiles": [
            {
                "type": "sampled",
                "name": profile.name,
                "unit": UNITS[profile.unit],
                "startValue": 0,
                "endValue": sum(weights),
                "samples": samples,
                "weights": weights,
            }
        ],
    }


def encode_speedscope(profile: ViewProfile) -> bytes:
    """The speedscope file as compact UTF-8 JSON (a lone surrogate in a name becomes '?')."""
    document = speedscope_document(profile)
    return json.dumps(document, ensure_ascii=False, separators=(",", ":")).encode("utf-8", "replace")
