"""A capture's `meta`: what the console is told about how it was made."""

from __future__ import annotations

import shlex
from typing import Any, Sequence

from stallscope_collect import COLLECTOR
from stallscope_collect.perf.tool import Perf
from stallscope_collect.redaction import redact_value


def capture_meta(
    kind: str, commands: list[list[str]], pids: Sequence[int], perf: Perf | None, warnings: Sequence[str]
) -> dict[str, Any]:
    """The `meta` query parameter: the collector's version, the commands (secrets masked), the
    targets, perf's version and the warnings."""
    meta: dict[str, Any] = {
        "collector": COLLECTOR,
        # Exactly as run, but secrets masked (a --metrics-cmd may carry a password or a header);
        # commands.txt on the host keeps them unmasked.
        "commands": [redact_value(shlex.join(c)) for c in commands],
        "kind": kind,
        "target_pids": list(pids),
    }
    if perf is not None and commands:
        meta["perf_version"] = perf.version
    if warnings:
        meta["warnings"] = list(warnings)[:10]
    return meta
