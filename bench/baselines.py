"""The baselines every speed benchmark prints beside its own figures, measured in the same run.

- `naive_collapse`: what a first Python collapse of `perf script` text usually looks like, line by
  line with no caching. It is the bar the parser must clear on one core, so its code is here for
  anyone to read (`parser_throughput.py --show-baselines` prints it).
- `inferno-collapse-perf --nthreads 1`: the Rust collapser (`cargo install inferno`), the moonshot.
  `find_inferno` looks on PATH and in `~/.cargo/bin`; it reads plain text only, so it is given a
  decompressed copy (`decompressed`).
- `run_timed`: a command's wall time and its own peak RSS (from `wait4`, so nothing else's counts);
  `installed_python_env` runs a Python command as installed, its bytecode cached.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH.parent / "backend"))

from stallscope.kit.compression import open_capture  # noqa: E402

DEEP_CAPTURE = BENCH / "captures" / "deep-compile" / "cpu.perf.txt.gz"
"""The real deep capture the speed figures are measured on (`record_deep_capture.py` made it)."""
INFERNO = "inferno-collapse-perf"
INFERNO_MISSING = f"{INFERNO}: not on PATH or in ~/.cargo/bin, skipped (install it: cargo install inferno)"


# -- the naive baseline: what a first Python collapse usually looks like ------------------------

_OFFSET = re.compile(r"\+0x[0-9a-f]+$")


def naive_collapse(stream: BinaryIO) -> Counter[str]:
    """Line by line, no caching: split each header and frame line, join the stack, count it."""
    counts: Counter[str] = Counter()
    comm, stack, in_sample = "", list[str](), False
    for raw in stream:
        line = raw.decode("utf-8", "replace").rstrip()
        if line.startswith("#"):
            continue
        if not line:
            if in_sample and stack:
                counts[";".join([comm, *reversed(stack)])] += 1
            comm, stack, in_sample = "", [], False
        elif not in_sample:
            words = line.split()
            tid_at = next((i for i, w in enumerate(words) if w.isdigit()), 1)
            comm, in_sample = "_".join(words[:tid_at]), True
        else:
            address_and_func, _, module = line.strip().rpartition(" (")
            func = address_and_func.partition(" ")[2] or "[unknown]"
            func = _OFFSET.sub("", func)
            if func == "[unknown]" and module != "[unknown])":
                func = "[" + module.rstrip(")").rsplit("/", 1)[-1] + "]"
            stack.append(func.split("(")[0].replace(";", ":"))
    if in_sample and stack:
        counts[";".join([comm, *reversed(stack)])] += 1
    return counts


# -- inferno and other commands ------------------------------------------------------------------


def find_inferno() -> Path | None:
    """`inferno-collapse-perf` on PATH or where `cargo install` puts it; None when absent."""
    found = shutil.which(INFERNO) or shutil.which(INFERNO, path=str(Path.home() / ".cargo" / "bin"))
    return Path(found) if found else None


def inferno_command(tool: Path, path: Path) -> list[str]:
    """One core, as the parser runs: inferno would otherwise use every core it finds."""
    return [str(tool), "--nthreads", "1", str(path)]


@dataclass(frozen=True, slots=True)
class Run:
    seconds: float
    peak_rss_mib: float


def run_timed(command: list[str], env: dict[str, str] | None = None) -> Run:
    """Run `command` with its output thrown away; its wall time and its own peak RSS.

    Raises CalledProcessError when it fails, with what it printed on stderr.
    """
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    assert process.stderr is not None
    errors = process.stderr.read()
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise subprocess.CalledProcessError(process.returncode, command, stderr=errors)
    return Run(seconds, usage.ru_maxrss / 1024)


def installed_python_env(folder: Path) -> dict[str, str]:
    """The environment a Python command runs in once installed: its bytecode cached (here under
    `folder`, so the checkout is left alone) whatever `PYTHONDONTWRITEBYTECODE` says. Without it
    every start compiles the modules again, a tenth of a second users never pay."""
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(folder / "pycache")
    return env


def decompressed(path: Path, folder: Path) -> Path:
    """A plain copy of a capture (gzip, zstd or plain) in `folder`, for tools that read plain text."""
    target = folder / (path.name.removesuffix(".gz").removesuffix(".zst") + ".plain")
    with open_capture(path) as source, target.open("wb") as out:
        shutil.copyfileobj(source, out, 1 << 20)
    return target
