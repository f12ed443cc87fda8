"""Throughput of the `perf script` parser and `stallscope collapse`, beside the baselines, on real captures.

    python bench/parser_throughput.py                    # the deep capture and the corpus's cpu20s
    python bench/parser_throughput.py FILE [FILE ...]    # any perf script files, plain or compressed
    python bench/parser_throughput.py --generated        # cpu20s repeated to >= 500 MB (--size-mb N)
    python bench/parser_throughput.py --show-baselines   # print the naive collapse's code, then run

Per input, in the same run: `stallscope collapse FILE` (the command itself, interpreter start
included, its bytecode cached as an installed command's is), the parser alone (what a parse job
runs before storing anything), the naive collapse (`baselines.naive_collapse`, line by line with
no caching) and `inferno-collapse-perf --nthreads 1` (the Rust collapser; skipped with a note when
it is not installed). Everything reads the same decompressed copy of the input, in a temporary
folder, so no figure includes decompression. Each figure is the best of `--runs` runs, each in its
own process, so peak RSS figures do not mix; MB are megabytes (10^6 bytes) of `perf script` text.
Ratios are against the baselines of the same run, which makes them steadier than the absolute
figures on a shared machine: the load average is printed with them.

The default inputs: `bench/captures/deep-compile/cpu.perf.txt.gz`, a system-wide `perf record -g`
during a build (`record_deep_capture.py`; a few kilobytes of deep stack a sample, most of them new),
and the corpus's `captures/cpu20s.perf.txt.gz`. The generated input is `cpu20s` decompressed and
repeated, each copy's timestamps moved past the previous copy's, so it reads like one long capture
whose stacks all repeat: the best case for a parser's caches.
"""

from __future__ import annotations

import argparse
import gzip
import inspect
import json
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH.parent / "backend"))
sys.path.insert(0, str(BENCH))

from baselines import (  # noqa: E402
    DEEP_CAPTURE,
    INFERNO_MISSING,
    decompressed,
    find_inferno,
    inferno_command,
    installed_python_env,
    naive_collapse,
    run_timed,
)

from stallscope.ingest.model import ParseReport  # noqa: E402
from stallscope.ingest.perf_script import parse_perf_script  # noqa: E402

__all__ = ["DEFAULT_CORPUS", "build_input", "naive_collapse", "shift_times", "span_seconds"]

DEFAULT_CORPUS = BENCH.parent.parent / "shared" / "corpus"
SOURCE = Path("captures") / "cpu20s.perf.txt.gz"
IN_PROCESS = ("parser", "naive")
_HEADER_TIME = re.compile(rb"(?m)^([^\t\n#][^\n]*?\s)(\d+)(\.\d+:)")


# -- one measurement, in a child process -------------------------------------------------------


def measure(kind: str, path: Path) -> dict[str, float]:
    """Time the parser alone or the naive collapse over a plain file, in this (fresh) process."""
    with open(path, "rb") as stream:
        start = time.perf_counter()
        if kind == "naive":
            samples = sum(naive_collapse(stream).values())
        else:
            report = ParseReport()
            for _ in parse_perf_script(stream, report):
                pass
            samples = report.samples
        seconds = time.perf_counter() - start
    peak_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return {"seconds": seconds, "samples": samples, "peak_rss_mib": peak_kib / 1024}


def run_child(*args: str) -> str:
    """Run this script in a fresh process (a child's peak RSS includes what it was forked from)."""
    result = subprocess.run([sys.executable, __file__, *args], check=True, capture_output=True, text=True)
    return result.stdout


@dataclass(slots=True)
class Figures:
    seconds: float
    peak_rss_mib: float


def best_of(runs: int, once: Callable[[], Figures]) -> Figures:
    """The fastest of `runs` runs of `once()`, with that run's peak RSS."""
    return min((once() for _ in range(runs)), key=lambda figures: figures.seconds)


def measure_input(plain: Path, runs: int, folder: Path) -> tuple[dict[str, Figures | None], dict[str, float]]:
    """Every row of one input's table, and the counts of samples the parser and naive collapse saw."""
    samples: dict[str, float] = {}

    def in_process(kind: str) -> Figures:
        figures = json.loads(run_child("--measure", kind, str(plain)))
        samples[kind] = figures["samples"]
        return Figures(figures["seconds"], figures["peak_rss_mib"])

    def command(argv: list[str], env: dict[str, str] | None = None) -> Figures:
        run = run_timed(argv, env)
        return Figures(run.seconds, run.peak_rss_mib)

    collapse = [sys.executable, "-m", "stallscope", "collapse", str(plain)]
    env = installed_python_env(folder)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(BENCH.parent / "backend"), env.get("PYTHONPATH")]))
    warm = folder / "warm-up.perf.txt"  # compiles and caches the command's bytecode, untimed
    warm.write_bytes(b"app 1 [000] 1.000001: 1 cycles:\n\t1234 main (/bin/app)\n\n")
    run_timed([*collapse[:-1], str(warm)], env)
    inferno = find_inferno()
    rows: dict[str, Figures | None] = {
        "stallscope collapse": best_of(runs, lambda: command(collapse, env)),
        "parser alone": best_of(runs, lambda: in_process("parser")),
        "naive collapse": best_of(runs, lambda: in_process("naive")),
        "inferno --nthreads 1": best_of(runs, lambda: command(inferno_command(inferno, plain)))
        if inferno
        else None,
    }
    return rows, samples


# -- building the large input ------------------------------------------------------------------


def shift_times(data: bytes, seconds: int) -> bytes:
    """Move every header's timestamp `seconds` later (frame lines start with a tab and are left)."""
    if seconds == 0:
        return data
    return _HEADER_TIME.sub(lambda m: m[1] + str(int(m[2]) + seconds).encode() + m[3], data)


def span_seconds(data: bytes) -> int:
    times = [int(m[2]) for m in _HEADER_TIME.finditer(data)]
    return max(times) - min(times) + 1


def build_input(
    corpus: Path, size_mb: int, folder: Path, source: Path = SOURCE, copies: int | None = None
) -> Path:
    """Repeat a corpus capture, each copy's times past the previous one's, until `size_mb` (or
    exactly `copies` copies), so the result reads like one long capture."""
    data = gzip.decompress((corpus / source).read_bytes())
    span = span_seconds(data)
    stem = source.name.split(".")[0]
    target = folder / (f"{stem}-x{copies}.perf.txt" if copies else f"{stem}-{size_mb}MB.perf.txt")
    with target.open("wb") as out:
        copy = 0
        while (copy < copies) if copies else (out.tell() < size_mb * 1_000_000):
            out.write(shift_times(data, copy * span))
            copy += 1
    return target


# -- the report --------------------------------------------------------------------------------


def print_table(name: str, plain: Path, rows: dict[str, Figures | None], samples: dict[str, float]) -> None:
    size_mb = plain.stat().st_size / 1e6
    count = samples["parser"]
    print(f"\n{name}: {size_mb:,.1f} MB of perf script, {count:,.0f} samples")
    naive, inferno = rows["naive collapse"], rows["inferno --nthreads 1"]
    assert naive is not None
    titles = (("seconds", 8), ("MB/s", 7), ("samples/s", 10), ("peak RSS", 9), ("vs naive", 9))
    print(f"{'':22} " + " ".join(f"{title:>{width}}" for title, width in titles) + f" {'vs inferno':>11}")
    for label, figures in rows.items():
        if figures is None:
            print(f"{label:22} {INFERNO_MISSING}")
            continue
        versus_inferno = f"{inferno.seconds / figures.seconds:10.2f}x" if inferno else f"{'-':>11}"
        print(
            f"{label:22} {figures.seconds:8.2f} {size_mb / figures.seconds:7.1f} "
            f"{count / figures.seconds:10,.0f} {figures.peak_rss_mib:5.0f} MiB "
            f"{naive.seconds / figures.seconds:8.2f}x {versus_inferno}"
        )
    if samples["naive"] != count:
        print(f"(the naive collapse counts {samples['naive']:,.0f}: it leaves samples without a stack out)")


def load() -> str:
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("files", nargs="*", type=Path, help="perf script output (plain, gzip or zstd)")
    parser.add_argument("--generated", action="store_true", help="measure cpu20s repeated instead")
    parser.add_argument("--size-mb", type=int, default=500, help="size of the generated input (default 500)")
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS, help="the shared corpus folder")
    parser.add_argument("--runs", type=int, default=3, help="runs per figure, the best is kept (default 3)")
    parser.add_argument("--show-baselines", action="store_true", help="print the naive collapse's code")
    parser.add_argument("--measure", choices=IN_PROCESS, help=argparse.SUPPRESS)
    parser.add_argument("--build-in", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()

    if args.measure:
        print(json.dumps(measure(args.measure, args.files[0])))
        return
    if args.build_in:
        print(build_input(args.corpus, args.size_mb, args.build_in))
        return
    if args.show_baselines:
        print(inspect.getsource(naive_collapse))

    inputs: list[Path] = list(args.files)
    if not inputs and not args.generated:
        inputs = [DEEP_CAPTURE, args.corpus / SOURCE]
    for path in inputs:
        if not path.is_file():
            hint = " (record it with bench/record_deep_capture.py)" if path == DEEP_CAPTURE else ""
            parser.error(f"{path} not found{hint}")
    if find_inferno() is None:
        print(INFERNO_MISSING)

    print(f"load average before: {load()}", flush=True)
    with tempfile.TemporaryDirectory(prefix="stallscope-bench-") as tmp:
        folder = Path(tmp)
        if args.generated:
            print(f"building a {args.size_mb} MB input from {SOURCE} ...", flush=True)
            # Built in a child: this process must stay small, its children are forked from it.
            built = run_child("--size-mb", str(args.size_mb), "--corpus", str(args.corpus), "--build-in", tmp)
            inputs = [Path(built.strip())]
        for path in inputs:
            plain = path if args.generated else decompressed(path, folder)
            rows, samples = measure_input(plain, args.runs, folder)
            name = str(path.relative_to(BENCH)) if BENCH in path.parents else path.name
            print_table(name, plain, rows, samples)
            if not args.generated:
                plain.unlink()
    print(f"\nload average after: {load()} (best of {args.runs} runs, one process each)")


if __name__ == "__main__":
    main()
