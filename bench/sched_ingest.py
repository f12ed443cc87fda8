"""Scheduler-capture ingest: a ≥ 1 GB `perf script` of sched events into PostgreSQL, in bounded memory.

    python bench/sched_ingest.py                 # 1 GB built from the shared corpus
    python bench/sched_ingest.py --size-mb 3000  # bigger

The input repeats `offcpu5s.perf.txt.gz` (16 threads on one mutex, a write+fsync loop, sleepers;
sched_switch/wakeup with stacks) with shifted times. The parse job (off-CPU interval tracking, COPY
of events) runs in a child process whose peak RSS is printed beside the naive line-splitting
baseline measured in the same run; memory must not grow with the file. The two yardsticks every
benchmark prints (`baselines.py`: the naive collapse and `inferno-collapse-perf --nthreads 1`) are
timed over the same file, and the ingest's speed is given against them.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH.parent / "backend"))
sys.path.insert(0, str(BENCH))

from baselines import measure_baselines, print_baselines, versus  # noqa: E402
from ingest_and_query import child, measure_ingest, prepare_capture  # noqa: E402
from parser_throughput import DEFAULT_CORPUS  # noqa: E402
from parser_throughput import build_input as build_repeated  # noqa: E402

SOURCE = Path("captures") / "offcpu5s.perf.txt.gz"


def build_input(corpus: Path, size_mb: int, folder: Path) -> Path:
    return build_repeated(corpus, size_mb, folder, source=SOURCE)


def measure_naive(path: Path) -> dict[str, float]:
    import resource

    start = time.perf_counter()
    lines = 0
    with open(path, "rb") as stream:
        for line in stream:
            if b"sched:sched_switch" in line:
                lines += len(line.split())
    seconds = time.perf_counter() - start
    return {"seconds": seconds, "peak_rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--size-mb", type=int, default=1000)
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--build-in", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--naive", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--ingest", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.build_in:
        print(json.dumps({"path": str(build_input(args.corpus, args.size_mb, args.build_in))}))
        return
    if args.naive:
        print(json.dumps(measure_naive(args.naive)))
        return
    if args.ingest:
        print(json.dumps(measure_ingest(os.environ["DATABASE_URL"], args.ingest)))
        return

    tmp = Path(tempfile.mkdtemp(prefix="stallscope-bench-"))
    tmp.chmod(0o755)
    try:
        print(f"building a {args.size_mb} MB scheduler capture ...", flush=True)
        build_args = ["--size-mb", str(args.size_mb), "--corpus", str(args.corpus)]
        prepared = prepare_capture(tmp, build_args, script=__file__)
        url, path, capture_id = prepared.url, prepared.path, prepared.capture_id
        size_mb = path.stat().st_size / 1e6
        naive = child("--naive", str(path), script=__file__)
        yardsticks = measure_baselines(path, tmp, "the same capture")
        ingest = child("--ingest", str(capture_id), script=__file__)
        from stallscope.db import raw_connection

        with raw_connection(url) as conn:
            row = conn.execute("SELECT record_counts FROM captures WHERE id = %s", (capture_id,)).fetchone()
        counts = row[0] if row else {}
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"\ninput: {size_mb:,.0f} MB; stored: {json.dumps(counts)}")
    print_baselines(yardsticks)
    print(f"{'':36} {'seconds':>8} {'MB/s':>7} {'peak RSS':>9}")
    print(
        f"{'naive line split (baseline)':36} {naive['seconds']:8.1f} {size_mb / naive['seconds']:7.1f} "
        f"{naive['peak_rss_mib']:6.0f} MiB"
    )
    print(
        f"{'ingest: intervals + COPY into Postgres':36} {ingest['seconds']:8.1f} "
        f"{size_mb / ingest['seconds']:7.1f} {ingest['peak_rss_mib']:6.0f} MiB   "
        f"{versus(yardsticks, mb_per_s=size_mb / ingest['seconds'])}"
    )


if __name__ == "__main__":
    main()
