"""Finding perf and learning what this one can print."""

from __future__ import annotations

import re
import shutil
import subprocess
from dataclasses import dataclass

from stallscope_collect.formatting import describe

PERF_MISSING_HINT = (
    "install it with `apt install linux-perf` (Debian), "
    "`apt install linux-tools-$(uname -r)` (Ubuntu) or `dnf install perf` (Fedora, RHEL)"
)


@dataclass
class Perf:
    path: str
    version: str


PERF_TOD_SINCE = (5, 11)
"""`perf script -F +tod` (the wall-clock column, from a `-k` recording's clock data) is in perf 5.11+."""


def perf_prints_tod(version: str) -> bool:
    """Whether `perf version` output ("perf version 6.1.192") names a perf with the `tod` field."""
    found = re.search(r"(\d+)\.(\d+)", version)
    return found is not None and (int(found.group(1)), int(found.group(2))) >= PERF_TOD_SINCE


def find_perf() -> tuple[Perf | None, str]:
    """(perf, "") or (None, why not)."""
    path = shutil.which("perf")
    if path is None:
        return None, "perf is not installed: " + PERF_MISSING_HINT
    try:
        proc = subprocess.run(
            [path, "version"],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            timeout=20,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return None, f"perf ({path}) does not run: {describe(exc)}; {PERF_MISSING_HINT}"
    text = proc.stdout.decode("utf-8", "replace").strip()
    if proc.returncode != 0:
        # Ubuntu's /usr/bin/perf is a wrapper that fails when the tools for this kernel are missing.
        return None, f"perf ({path}) does not run for this kernel: {text[:300]}; {PERF_MISSING_HINT}"
    return Perf(path, text), ""
