"""Throughput of the `perf script` parser beside a naive Python collapse, on a large input.

    python bench/parser_throughput.py                 # builds a >= 500 MB input from the corpus
    python bench/parser_throughput.py FILE            # any perf script file, plain or compressed
    python bench/parser_throughput.py --size-mb 2000  # a bigger generated input

The generated input is `cpu20s.perf.txt.gz` from the shared corpus, decompressed and repeated, each
copy's timestamps moved past the previous copy's so the result reads like one long capture. Each
measurement runs in its own process so that peak RSS figures do not mix; MB are decompressed megabytes
(10^6 bytes) read by the parser.
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import resource
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import BinaryIO

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "backend"))

from stallscope.export import FoldOptions, StackFolder  # noqa: E402
from stallscope.ingest.model import ParseReport  # noqa: E402
from stallscope.ingest.perf_script import parse_perf_script  # noqa: E402
from stallscope.kit.compression import open_capture  # noqa: E402

DEFAULT_CORPUS = REPO.parent / "shared" / "corpus"
SOURCE = Path("captures") / "cpu20s.perf.txt.gz"
MEASUREMENTS = ("naive", "parser", "parser+fold")
_HEADER_TIME = re.compile(rb"(?m)^([^\t\n#][^\n]*?\s)(\d+)(\.\d+:)")


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


# -- one measurement, in a child process -------------------------------------------------------


def measure(kind: str, path: Path) -> dict[str, float]:
    with open_capture(path) as stream:
        start = time.perf_counter()
        if kind == "naive":
            samples = sum(naive_collapse(stream).values())
        else:
            report = ParseReport()
            parsed = parse_perf_script(stream, report)
            if kind == "parser":
                samples = sum(1 for _ in parsed)
            else:
                folder = StackFolder(FoldOptions())
                folder.add_all(parsed)
                folder.result()
                samples = report.samples
        seconds = time.perf_counter() - start
        consumed = stream.tell()  # decompressed bytes, for compressed inputs too
    peak_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return {"seconds": seconds, "bytes": consumed, "samples": samples, "peak_rss_mib": peak_kib / 1024}


def run_child(*args: str) -> str:
    """Run this script in a fresh process (a child's peak RSS includes what it was forked from)."""
    result = subprocess.run([sys.executable, __file__, *args], check=True, capture_output=True, text=True)
    return result.stdout


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


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("file", nargs="?", type=Path, help="perf script output (plain, gzip or zstd)")
    parser.add_argument("--size-mb", type=int, default=500, help="size of the generated input (default 500)")
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS, help="the shared corpus folder")
    parser.add_argument("--measure", choices=MEASUREMENTS, help=argparse.SUPPRESS)
    parser.add_argument("--build-in", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()

    if args.measure:
        print(json.dumps(measure(args.measure, args.file)))
        return
    if args.build_in:
        print(build_input(args.corpus, args.size_mb, args.build_in))
        return

    with tempfile.TemporaryDirectory(prefix="stallscope-bench-") as tmp:
        path = args.file
        if path is None:
            if not (args.corpus / SOURCE).is_file():
                parser.error(f"corpus not found at {args.corpus} (use --corpus DIR)")
            print(f"building a {args.size_mb} MB input from {SOURCE} ...", flush=True)
            # Built in a child too: this process must stay small, its children are forked from it.
            built = run_child("--size-mb", str(args.size_mb), "--corpus", str(args.corpus), "--build-in", tmp)
            path = Path(built.strip())
        print(f"input: {path.name}, {path.stat().st_size / 1e6:,.0f} MB on disk", flush=True)
        results: dict[str, dict[str, float]] = {
            kind: json.loads(run_child("--measure", kind, str(path))) for kind in MEASUREMENTS
        }

    naive = results["naive"]
    print(f"{'':12} {'MB/s':>8} {'samples/s':>11} {'seconds':>8} {'peak RSS':>10} {'vs naive':>9}")
    for kind, figures in results.items():
        mb_s = figures["bytes"] / 1e6 / figures["seconds"]
        samples_s = figures["samples"] / figures["seconds"]
        ratio = naive["seconds"] / figures["seconds"]
        print(
            f"{kind:12} {mb_s:8.1f} {samples_s:11,.0f} {figures['seconds']:8.2f} "
            f"{figures['peak_rss_mib']:7.0f} MiB {ratio:8.2f}x"
        )
    print(f"samples: {results['parser']['samples']:,.0f} (naive collapse counted {naive['samples']:,.0f})")


if __name__ == "__main__":
    main()
