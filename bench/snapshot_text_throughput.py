"""Throughput of the text snapshot importer on one core, beside a naive `key = value` splitter.

    python bench/snapshot_text_throughput.py                      # every input, >= 50 MB each
    python bench/snapshot_text_throughput.py --only named --size-mb 20

The inputs are the snapshots recorded for the tests (`tests/ingest/data/snapshot_text/`), each
measured twice: repeated 19 times (`x19`: every take is mapped, the cost of a real file of that
kind), and repeated until it is at least `--size-mb` megabytes (10^6 bytes), which makes hundreds
of takes, of which the importer maps the first 19 and the last (the others are only cut into
sections, then dropped: a script run in a loop into one file):

- `named`: `---- name ----` sections, mostly `sysctl -a` and a kernel config, which map line by
  line (the slowest path);
- `paths-eq`: `== /path ==` sections, one small file each, with `ps` and `top` kept as text;
- `paths-hash`: the same in `# path` style;
- `start-end`: `==== start ====` / `==== end ====` takes, a BPF program listing in the second.

Each measurement runs in its own process, so the peak RSS it prints belongs to that parser alone.
MB/s is input over CPU time; the naive baseline reads the same file line by line and splits each
line at its first `=` or `:`, nothing more. The two yardsticks every benchmark prints
(`baselines.py`: the naive collapse and `inferno-collapse-perf --nthreads 1`) are timed in the same
run over a `perf script` input of about `--size-mb` (the corpus's `cpu20s`, or the deep capture
past 150 MB), and each parser's MB/s is given against them.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "backend"))
sys.path.insert(0, str(REPO / "bench"))

from baselines import DEFAULT_CORPUS, measure_baselines, print_baselines, versus, yardstick_for  # noqa: E402

from stallscope.ingest.model import ParseReport  # noqa: E402
from stallscope.ingest.snapshot_text import parse_snapshot_text  # noqa: E402

DATA = REPO / "backend" / "tests" / "ingest" / "data" / "snapshot_text"
TARGET_MB_S = 30.0
INPUTS = {
    "named": "dash_named.txt",
    "paths-eq": "eq_paths.txt",
    "paths-hash": "hash_paths_twice.txt",
    "start-end": "start_end.txt",
}


MAPPED_TAKES = 19


def build(path: Path, body: bytes, size_mb: int | None) -> int:
    copies = MAPPED_TAKES if size_mb is None else max(1, -(-size_mb * 1_000_000 // len(body)))
    path.write_bytes(body * copies)
    return len(body) * copies


def measure(kind: str, path: Path) -> dict[str, float]:
    report = ParseReport()
    cpu, wall = time.process_time(), time.perf_counter()
    with open(path, "rb", buffering=1 << 20) as stream:
        if kind == "parser":
            records = sum(1 for _ in parse_snapshot_text(stream, report))
        else:
            records = 0
            for line in stream:
                _key, sep, _value = line.partition(b"=")
                if not sep:
                    _key, sep, _value = line.partition(b":")
                records += bool(sep)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    return {"cpu_s": cpu, "wall_s": wall, "records": records, "rss_mib": peak_rss_mib()}


def peak_rss_mib() -> float:
    status = Path("/proc/self/status").read_text()
    line = next(line for line in status.splitlines() if line.startswith("VmHWM:"))
    return int(line.split()[1]) / 1024


def best(repeat: int, kind: str, path: Path) -> dict[str, float]:
    runs = []
    for _ in range(repeat):
        command = [sys.executable, __file__, "--measure", kind, str(path)]
        done = subprocess.run(command, check=True, capture_output=True, text=True)
        runs.append(json.loads(done.stdout))
    return min(runs, key=lambda run: run["cpu_s"])


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--size-mb", type=int, default=50, help="minimum input size per input (default 50)")
    parser.add_argument("--only", help="comma-separated inputs: " + ", ".join(INPUTS))
    parser.add_argument("--repeat", type=int, default=3, help="runs per measurement, best kept (default 3)")
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS, help="the shared corpus (baselines)")
    parser.add_argument("--measure", nargs=2, metavar=("KIND", "FILE"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        kind, file = args.measure
        print(json.dumps(measure(kind, Path(file))))
        return
    chosen = args.only.split(",") if args.only else list(INPUTS)
    with tempfile.TemporaryDirectory(prefix="stallscope-snapshot-bench-") as tmp:
        yardstick = yardstick_for(args.size_mb * 1e6, args.corpus)
        yardsticks = measure_baselines(yardstick, Path(tmp), "perf script of about this size")
    print_baselines(yardsticks, cpu_time=True)
    print(
        f"{'input':16} {'input MB':>8} {'parser MB/s':>11} {'takes':>6} {'RSS MiB':>8}"
        f"   {'naive MB/s':>10} {'ratio':>6}  target   against the yardsticks"
    )
    with tempfile.TemporaryDirectory(prefix="stallscope-snapshot-bench-") as tmp:
        for name in chosen:
            for size_mb in (None, args.size_mb):
                path = Path(tmp) / f"{name}.txt"
                size = build(path, (DATA / INPUTS[name]).read_bytes(), size_mb)
                ours = best(args.repeat, "parser", path)
                naive = best(args.repeat, "naive", path)
                mb_s = size / ours["cpu_s"] / 1e6
                naive_mb_s = size / naive["cpu_s"] / 1e6
                verdict = "ok" if mb_s >= TARGET_MB_S else f"< {TARGET_MB_S:.0f}"
                label = f"{name} x{MAPPED_TAKES}" if size_mb is None else name
                print(
                    f"{label:16} {size / 1e6:8.1f} {mb_s:11.1f} {ours['records']:6.0f} "
                    f"{ours['rss_mib']:8.0f}   {naive_mb_s:10.1f} {mb_s / naive_mb_s:6.2f}  {verdict:6}   "
                    f"{versus(yardsticks, mb_per_s=mb_s, cpu_time=True)}",
                    flush=True,
                )
                path.unlink()
    print(f"MB = 10^6 bytes of text per CPU second; one core; best of {args.repeat}; takes emitted (<= 20)")


if __name__ == "__main__":
    main()
