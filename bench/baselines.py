"""The baselines every speed benchmark prints beside its own figures, measured in the same run.

- `naive_collapse`: what a first Python collapse of `perf script` text usually looks like, line by
  line with no caching. It is the bar the parser must clear on one core, so its code is here for
  anyone to read (`parser_throughput.py --show-baselines` prints it).
- `inferno-collapse-perf --nthreads 1`: the Rust collapser (`cargo install inferno`), the moonshot.
  `find_inferno` looks on PATH and in `~/.cargo/bin`; it reads plain text only, so it is given a
  decompressed copy (`decompressed`).
- `run_timed`: a command's wall time, CPU time and its own peak RSS (from `wait4`, so nothing
  else's counts); `installed_python_env` runs a Python command as installed, its bytecode cached.
- `measure_baselines`, `print_baselines`, `versus`: what every benchmark prints beside its own
  figures, so each can be placed against the same two yardsticks: both baselines over a `perf
  script` input (the benchmark's own when it is one, else one of comparable size, `yardstick_for`),
  and a figure's ratio to each.
"""

from __future__ import annotations

import argparse
import json
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
DEFAULT_CORPUS = BENCH.parent.parent / "shared" / "corpus"
CPU20S = Path("captures") / "cpu20s.perf.txt.gz"
"""The corpus's 20 s system-wide capture: 56 MB of `perf script`, 39,856 samples."""
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
    cpu_seconds: float = 0.0
    """User and system time of the command alone."""


def run_timed(command: list[str], env: dict[str, str] | None = None) -> Run:
    """Run `command` with its output thrown away; its wall time, CPU time and its own peak RSS.

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
    return Run(seconds, usage.ru_maxrss / 1024, usage.ru_utime + usage.ru_stime)


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


# -- both baselines beside a benchmark's own figures ---------------------------------------------


@dataclass(frozen=True, slots=True)
class Baselines:
    """The naive collapse and `inferno-collapse-perf --nthreads 1` of one `perf script` input, timed
    in the run whose figures they stand beside (wall and CPU seconds)."""

    input: str
    """What was collapsed, as printed."""
    bytes: int
    """Of decompressed text."""
    naive: Run
    inferno: Run | None
    """None when inferno is not installed."""

    def mb_per_s(self, run: Run, cpu_time: bool = False) -> float:
        return self.bytes / 1e6 / (run.cpu_seconds if cpu_time else run.seconds)


def yardstick_for(size_bytes: float, corpus: Path = DEFAULT_CORPUS) -> Path:
    """A `perf script` input of about `size_bytes`, for a benchmark whose own input is another
    format: the corpus's cpu20s (56 MB) up to 150 MB, the deep capture (338 MB) above."""
    return corpus / CPU20S if size_bytes <= 150e6 else DEEP_CAPTURE


def measure_baselines(path: Path, folder: Path, note: str = "", name: str | None = None) -> Baselines:
    """Time both baselines over `path`, each in a process of its own, on plain text (a compressed
    input is decompressed into `folder` first: neither pays for decompression). `note` says why
    this input; `name` names it when its file name does not (a stored upload's)."""
    with path.open("rb") as head:
        magic = head.read(4)
    compressed = magic[:2] == b"\x1f\x8b" or magic == b"\x28\xb5\x2f\xfd"  # gzip, zstd
    plain = decompressed(path, folder) if compressed else path
    try:
        naive = json.loads(
            subprocess.run(
                [sys.executable, __file__, "--naive", str(plain)], check=True, capture_output=True, text=True
            ).stdout
        )
        tool = find_inferno()
        inferno = run_timed(inferno_command(tool, plain)) if tool else None
        size = plain.stat().st_size
    finally:
        if compressed:
            plain.unlink(missing_ok=True)
    label = f"{name or path.name}{f' ({note})' if note else ''}"
    return Baselines(label, size, Run(**naive), inferno)


def print_baselines(baselines: Baselines, cpu_time: bool = False) -> None:
    """Both baselines, a line each: seconds and MB/s (over CPU time when the benchmark's own
    figures are, as the parser benchmarks' are)."""
    clock = "CPU" if cpu_time else "wall"
    print(f"baselines, same run: {baselines.input}, {baselines.bytes / 1e6:,.1f} MB of perf script text")
    rows = [
        ("naive Python collapse", baselines.naive),
        ("inferno-collapse-perf --nthreads 1", baselines.inferno),
    ]
    for label, run in rows:
        if run is None:
            print(f"  {INFERNO_MISSING}")
            continue
        seconds = run.cpu_seconds if cpu_time else run.seconds
        print(f"  {label:36} {seconds:8.2f} s {clock}  {baselines.mb_per_s(run, cpu_time):8.1f} MB/s")


def versus(
    baselines: Baselines,
    *,
    mb_per_s: float | None = None,
    seconds: float | None = None,
    cpu_time: bool = False,
) -> str:
    """`0.47x the naive collapse, 0.16x inferno`: one figure against both yardsticks, higher meaning
    faster. A throughput (MB/s) is divided by theirs; a time taken (seconds: a view, an export) is
    divided into theirs, i.e. how many times over the baseline could have collapsed its input."""

    def ratio(run: Run) -> float:
        if mb_per_s is not None:
            return mb_per_s / baselines.mb_per_s(run, cpu_time)
        assert seconds is not None, "a throughput or a time"
        return (run.cpu_seconds if cpu_time else run.seconds) / seconds

    naive = f"{ratio(baselines.naive):.2f}x the naive collapse"
    if baselines.inferno is None:
        return f"{naive}, inferno not installed"
    return f"{naive}, {ratio(baselines.inferno):.2f}x inferno"


def _measure_naive(plain: Path) -> dict[str, float]:
    """The naive collapse of a plain file in this (fresh) process: wall and CPU seconds, peak RSS."""
    import resource

    with plain.open("rb") as stream:
        wall, cpu = time.perf_counter(), time.process_time()
        naive_collapse(stream)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    return {
        "seconds": wall,
        "cpu_seconds": cpu,
        "peak_rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="Time the naive collapse of a plain perf script file.")
    parser.add_argument("--naive", type=Path, required=True)
    print(json.dumps(_measure_naive(parser.parse_args().naive)))
