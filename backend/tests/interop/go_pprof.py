"""The Go toolchain's pprof, run on a local file: the real consumer of our pprof exports.

Offline by construction: given a file path, `go tool pprof` reads it and fetches nothing. Tests
that need it skip, saying why, when no Go toolchain is installed.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

GO_CANDIDATES = ("/usr/local/go/bin/go",)
PPROF_TIMEOUT_S = 300
"""The first run builds pprof from the toolchain's sources (half a minute on a busy machine)."""

_TOTAL = re.compile(r"Showing nodes accounting for .*?, [\d.]+% of (\d+)(\w*) total")
_TOP_LINE = re.compile(r"^\s*(\d+)(\w*)\s+[\d.]+%\s+[\d.]+%\s+(\d+)(\w*)\s+[\d.]+%\s+(.+)$")


def go_binary() -> str:
    found = shutil.which("go") or next((c for c in GO_CANDIDATES if Path(c).is_file()), None)
    if found is None:
        pytest.skip("no Go toolchain (go) on PATH or in /usr/local/go: cannot run `go tool pprof`")
    return found


def pprof(path: Path, *args: str) -> str:
    """`go tool pprof ARGS PATH`'s standard output; fails the test with its errors otherwise."""
    env = {**os.environ, "GOTOOLCHAIN": "local", "PPROF_TMPDIR": str(path.parent)}
    done = subprocess.run(
        [go_binary(), "tool", "pprof", *args, str(path)],
        capture_output=True,
        text=True,
        timeout=PPROF_TIMEOUT_S,
        env=env,
        check=False,
    )
    assert done.returncode == 0, f"go tool pprof {' '.join(args)} failed:\n{done.stderr}"
    return done.stdout


def top(path: Path, *args: str) -> tuple[int, dict[str, int]]:
    """`-top`'s total and each listed function's flat value, in the unit `args` ask for (`-unit=ns`)."""
    out = pprof(path, "-top", "-nodecount=1000000", *args)
    match = _TOTAL.search(out)
    assert match, f"no total in go tool pprof -top output:\n{out}"
    flats: dict[str, int] = {}
    for line in out.splitlines():
        row = _TOP_LINE.match(line)
        if row:
            flats[row.group(5).strip()] = int(row.group(1))
    return int(match.group(1)), flats
