"""Throughput of the clock anchor importer on one core, beside a naive parse of the same input.

    python bench/clock_anchors_throughput.py               # the three shapes, 40 MB each
    python bench/clock_anchors_throughput.py --size-mb 10

Anchor files are usually a few lines, so this only keeps the importer honest on a pathological one
(a pair logged every millisecond for hours). Inputs repeat the anchors recorded in
`backend/tests/ingest/data/clock/` with both clocks moved on by a millisecond per row, in three
shapes: CSV in ns, whitespace-separated seconds (`uptime_s epoch_s`), and JSON lines. The naive
baseline is `csv.reader`/`str.split`/`json.loads` per line with `int()`/`float()` of both values
and a median of the differences. MB/s is input over CPU time, best of `--repeat`. The two yardsticks
every benchmark prints (`baselines.py`: the naive collapse and `inferno-collapse-perf --nthreads 1`)
are timed in the same run over the corpus's `cpu20s` (a `perf script` input of about this size), and
each importer's MB/s is given against them.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "backend"))
sys.path.insert(0, str(REPO / "bench"))

from baselines import DEFAULT_CORPUS, measure_baselines, print_baselines, versus, yardstick_for  # noqa: E402

from stallscope.ingest.clock_anchors import IMPORTER  # noqa: E402
from stallscope.ingest.model import Document, ParseReport  # noqa: E402

ANCHORS = REPO / "backend" / "tests" / "ingest" / "data" / "clock" / "clock_anchors.csv"
TARGET_MB_S = 30.0


def _first_anchor() -> tuple[int, int]:
    monotonic, realtime = ANCHORS.read_text().splitlines()[1].split(",")
    return int(monotonic), int(realtime)


def build(shape: str, size_mb: float) -> bytes:
    monotonic, realtime = _first_anchor()
    rows: list[str] = {"csv": ["monotonic_ns,realtime_ns\n"], "seconds": ["uptime_s epoch_s\n"]}.get(
        shape, []
    )
    size, step = 0, 1_000_000
    while size < size_mb * 1e6:
        m, r = monotonic + len(rows) * step, realtime + len(rows) * step
        if shape == "csv":
            row = f"{m},{r}\n"
        elif shape == "seconds":
            row = f"{m // 10**9}.{m % 10**9:09d} {r // 10**9}.{r % 10**9:09d}\n"
        else:
            row = json.dumps({"monotonic_ns": m, "realtime_ns": r}) + "\n"
        rows.append(row)
        size += len(row)
    return "".join(rows).encode()


def importer(data: bytes) -> int:
    report = ParseReport()
    (document,) = list(IMPORTER.parse(io.BytesIO(data), report))
    assert isinstance(document, Document), "the clock-anchors importer yields one document"
    return int(str(document.content["offset_ns"]))


def naive(shape: str) -> Callable[[bytes], int]:
    def run(data: bytes) -> int:
        lines = data.decode().splitlines()
        if shape == "csv":
            pairs = [(int(a), int(b)) for a, b in csv.reader(lines[1:])]
        elif shape == "seconds":
            pairs = [
                (round(float(a) * 1e9), round(float(b) * 1e9)) for a, b in (x.split() for x in lines[1:])
            ]
        else:
            pairs = [(o["monotonic_ns"], o["realtime_ns"]) for o in map(json.loads, lines)]
        return statistics.median_low([b - a for a, b in pairs])

    return run


def best_mb_s(parse: Callable[[bytes], int], data: bytes, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        started = time.process_time()
        parse(data)
        best = min(best, time.process_time() - started)
    return len(data) / 1e6 / best


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--size-mb", type=float, default=40.0)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS, help="the shared corpus (baselines)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="stallscope-bench-") as tmp:
        size = args.size_mb * 1e6
        yardsticks = measure_baselines(
            yardstick_for(size, args.corpus), Path(tmp), "perf script of about this size"
        )
    print_baselines(yardsticks, cpu_time=True)
    print(
        f"{'shape':10} {'MB':>6} {'importer MB/s':>14} {'naive MB/s':>11} {'ratio':>6}"
        f"  target {TARGET_MB_S:g}   against the yardsticks"
    )
    for shape in ("csv", "seconds", "jsonl"):
        data = build(shape, args.size_mb)
        ours = best_mb_s(importer, data, args.repeat)
        theirs = best_mb_s(naive(shape), data, args.repeat)
        flag = "" if ours >= TARGET_MB_S else "  BELOW TARGET"
        print(
            f"{shape:10} {len(data) / 1e6:6.1f} {ours:14.1f} {theirs:11.1f} {ours / theirs:6.2f}{flag}   "
            f"{versus(yardsticks, mb_per_s=ours, cpu_time=True)}"
        )


if __name__ == "__main__":
    main()
