"""Throughput of the event and stack importers on one core, beside a naive line splitter.

    python bench/event_parsers_throughput.py                    # every format, >= 50 MB inputs
    python bench/event_parsers_throughput.py --only perf-trace,ftrace-graph --size-mb 100

Each input is built from real or sample data, repeated until it is at least `--size-mb` megabytes
(10^6 bytes): the corpus's off-CPU capture (180 MB as it is), its perf trace capture, the trace-cmd
report recorded for the tests, the hand-written function_graph, systemtap and DTrace samples, and the
inferno collapsed reference. Each measurement runs in its own process, so the peak RSS it prints
belongs to that parser alone (it stays flat whatever the input size: the parsers stream; the
interval and call trackers hold one entry per thread). MB/s is
decompressed input over CPU time, so a busy machine skews it less than wall time would; the naive
baseline reads the same file line by line and splits each line into words, nothing more.
"""

from __future__ import annotations

import argparse
import gzip
import json
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import BinaryIO

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "backend"))

from stallscope.ingest.collapsed import parse_collapsed  # noqa: E402
from stallscope.ingest.dtrace import parse_dtrace  # noqa: E402
from stallscope.ingest.ftrace import parse_ftrace  # noqa: E402
from stallscope.ingest.model import ParseReport, Record  # noqa: E402
from stallscope.ingest.perf_trace import parse_perf_trace  # noqa: E402
from stallscope.ingest.sched import parse_sched  # noqa: E402
from stallscope.ingest.stap import parse_stap_faults  # noqa: E402

DEFAULT_CORPUS = REPO.parent / "shared" / "corpus"
DATA = REPO / "backend" / "tests" / "ingest" / "data"
TARGET_MB_S = 30.0

Parser = Callable[[BinaryIO, ParseReport], Iterator[Record]]
PARSERS: dict[str, Parser] = {
    "perf-sched": parse_sched,
    "perf-trace": parse_perf_trace,
    "stap-faults": parse_stap_faults,
    "ftrace-events": parse_ftrace,
    "ftrace-graph": parse_ftrace,
    "collapsed": parse_collapsed,
    "dtrace": parse_dtrace,
}


# -- inputs -----------------------------------------------------------------------------------------


def _gunzip(path: Path) -> bytes:
    return gzip.decompress(path.read_bytes())


def _graph_body() -> bytes:
    """The hand-written graph without its header and its unbalanced ends, so copies nest cleanly."""
    lines = (DATA / "ftrace" / "function_graph.txt").read_bytes().splitlines(keepends=True)
    body = [line for line in lines if not line.startswith(b"#")][1:]  # the exit whose entry is missing
    return b"".join(body) + b" 1) $ 3594275 us  |    }\n 1) $ 3594276 us  |  }\n"


def _dtrace_body() -> bytes:
    text = (DATA / "dtrace" / "ustack_count.txt").read_bytes()
    return text[text.index(b"\n\n") :]


def sources(corpus: Path) -> dict[str, tuple[bytes, bytes]]:
    """Format -> (header written once, body repeated)."""
    return {
        "perf-sched": (b"", _gunzip(corpus / "captures" / "offcpu5s.perf.txt.gz")),
        "perf-trace": (b"", _gunzip(corpus / "captures" / "perf_trace.mmap_fsync_futex.txt.gz")),
        "stap-faults": (b"", (DATA / "stap" / "faults.txt").read_bytes()),
        "ftrace-events": (b"", _gunzip(DATA / "trace_cmd" / "block_wakeup.report.txt.gz")),
        "ftrace-graph": (b"# tracer: function_graph\n", _graph_body()),
        "collapsed": (
            b"",
            _gunzip(corpus / "captures" / "derived" / "cpu20s.collapsed.inferno-default.txt.gz"),
        ),
        "dtrace": (b"dtrace: description 'profile-997 ' matched 1 probe\n", _dtrace_body()),
    }


def build(path: Path, header: bytes, body: bytes, size_mb: int) -> int:
    """Write `header` then `body` until the file holds at least `size_mb` MB; returns its size."""
    size = 0
    with path.open("wb") as out:
        out.write(header)
        size += len(header)
        while size < size_mb * 1_000_000:
            out.write(body)
            size += len(body)
    return size


# -- one measurement (a child process) ---------------------------------------------------------------


def naive(stream: BinaryIO) -> int:
    """What a first Python reader does: every line, split into words."""
    return sum(1 for line in stream if line.split())


def measure(fmt: str, kind: str, path: Path) -> dict[str, float]:
    report = ParseReport()
    wall, cpu = time.perf_counter(), time.process_time()
    with path.open("rb") as stream:
        records = naive(stream) if kind == "naive" else sum(1 for _ in PARSERS[fmt](stream, report))
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    rss_mib = peak_rss_mib()
    return {
        "cpu_s": cpu,
        "wall_s": wall,
        "records": records,
        "rss_mib": rss_mib,
        "warnings": len(report.warnings),
    }


def peak_rss_mib() -> float:
    """This process's own peak RSS. VmHWM belongs to the address space exec gave it; ru_maxrss would
    keep the parent's size at fork time (Linux carries it across exec)."""
    try:
        status = Path("/proc/self/status").read_text()
    except OSError:
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    line = next(line for line in status.splitlines() if line.startswith("VmHWM:"))
    return int(line.split()[1]) / 1024


def run_child(fmt: str, kind: str, path: Path) -> dict[str, float]:
    command = [sys.executable, __file__, "--measure", fmt, kind, str(path)]
    done = subprocess.run(command, check=True, capture_output=True, text=True)
    result: dict[str, float] = json.loads(done.stdout)
    return result


def best(repeat: int, fmt: str, kind: str, path: Path) -> dict[str, float]:
    runs = [run_child(fmt, kind, path) for _ in range(repeat)]
    return min(runs, key=lambda run: run["cpu_s"])


# -- the table --------------------------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS, help="the shared corpus folder")
    parser.add_argument("--size-mb", type=int, default=50, help="minimum input size per format (default 50)")
    parser.add_argument("--only", help="comma-separated formats: " + ", ".join(PARSERS))
    parser.add_argument("--repeat", type=int, default=3, help="runs per measurement, best kept (default 3)")
    parser.add_argument("--workdir", type=Path, help="where to build the inputs (default: the system temp)")
    parser.add_argument("--measure", nargs=3, metavar=("FORMAT", "KIND", "FILE"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        fmt, kind, file = args.measure
        print(json.dumps(measure(fmt, kind, Path(file))))
        return

    chosen = args.only.split(",") if args.only else list(PARSERS)
    inputs = sources(args.corpus)
    print(
        f"{'format':14} {'input MB':>8} {'parser MB/s':>11} {'records/s':>10} {'RSS MiB':>8}"
        f"   {'naive MB/s':>10} {'ratio':>6}  target"
    )
    with tempfile.TemporaryDirectory(prefix="stallscope-events-bench-", dir=args.workdir) as tmp:
        for fmt in chosen:
            header, body = inputs[fmt]
            path = Path(tmp) / f"{fmt}.txt"
            size = build(path, header, body, args.size_mb)
            ours = best(args.repeat, fmt, "parser", path)
            baseline = best(args.repeat, fmt, "naive", path)
            mb_s = size / ours["cpu_s"] / 1e6
            naive_mb_s = size / baseline["cpu_s"] / 1e6
            verdict = "ok" if mb_s >= TARGET_MB_S else f"< {TARGET_MB_S:.0f}"
            print(
                f"{fmt:14} {size / 1e6:8.0f} {mb_s:11.1f} {ours['records'] / ours['cpu_s']:10.0f} "
                f"{ours['rss_mib']:8.0f}   {naive_mb_s:10.1f} {mb_s / naive_mb_s:6.2f}  {verdict}",
                flush=True,
            )
            path.unlink()
    print(
        f"MB = 10^6 bytes of text per CPU second; one core; best of {args.repeat}; records counted, not kept"
    )


if __name__ == "__main__":
    main()
