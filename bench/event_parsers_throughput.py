"""Throughput of the event and stack importers on one core, beside a naive line splitter.

    python bench/event_parsers_throughput.py                    # every format, >= 50 MB inputs
    python bench/event_parsers_throughput.py --only perf-trace,ftrace-graph --size-mb 100

Each input is built from real or sample data, repeated until it is at least `--size-mb` megabytes (10^6
bytes): the corpus's off-CPU capture (180 MB as it is), its perf trace capture and the `--no-inherit`
tracepoint sample, the trace-cmd report recorded for the tests, the hand-written function_graph sample
(also without its duration column, as `funcgraph -D` prints it), systemtap and DTrace samples, the
inferno collapsed reference (also as UTF-16 with a BOM), the /proc stack dumps recorded for the tests
(the issue's `# ts_us=…` header with pid and state, and `tail`'s `==>` headers after a `date`), and the
fsync loop's events CSV (`tabular/fsync_events.csv`). Each measurement runs in its own process, so the
peak RSS it prints belongs to that parser alone (it stays flat whatever the input size: the parsers
stream; the interval and call trackers hold one entry per thread). MB/s is decompressed input over CPU
time, so a busy machine skews it less than wall time would; the naive baseline reads the same file line
by line and splits each line into words, nothing more (for the events CSV: `csv.reader`, the time and
duration converted, a dict of the other cells per row). The two yardsticks every benchmark prints
(`baselines.py`: the naive collapse and `inferno-collapse-perf --nthreads 1`) are timed in the same
run over a `perf script` input of about `--size-mb` (the corpus's `cpu20s`, or the deep capture past
150 MB; one for every format, so the rows compare), and each parser's MB/s is given against them.
"""

from __future__ import annotations

import argparse
import codecs
import csv
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
sys.path.insert(0, str(REPO / "bench"))

from baselines import measure_baselines, print_baselines, versus, yardstick_for  # noqa: E402

from stallscope.ingest.appmetrics.csv_events import parse_events_csv  # noqa: E402
from stallscope.ingest.collapsed import parse_collapsed  # noqa: E402
from stallscope.ingest.dtrace import parse_dtrace  # noqa: E402
from stallscope.ingest.ftrace import parse_ftrace  # noqa: E402
from stallscope.ingest.model import ParseReport, Record  # noqa: E402
from stallscope.ingest.perf_trace import parse_perf_trace  # noqa: E402
from stallscope.ingest.proc_stacks import parse_proc_stacks  # noqa: E402
from stallscope.ingest.sched import parse_sched  # noqa: E402
from stallscope.ingest.stap import parse_stap_faults  # noqa: E402

DEFAULT_CORPUS = REPO.parent / "shared" / "corpus"
DATA = REPO / "backend" / "tests" / "ingest" / "data"
TARGET_MB_S = 30.0

Parser = Callable[[BinaryIO, ParseReport], Iterator[Record]]
PARSERS: dict[str, Parser] = {
    "perf-sched": parse_sched,
    "perf-trace": parse_perf_trace,
    "perf-trace-events": parse_perf_trace,
    "stap-faults": parse_stap_faults,
    "ftrace-events": parse_ftrace,
    "ftrace-graph": parse_ftrace,
    "ftrace-graph-nodur": parse_ftrace,
    "collapsed": parse_collapsed,
    "collapsed-utf16": parse_collapsed,
    "dtrace": parse_dtrace,
    "events-csv": parse_events_csv,
    "proc-stacks": parse_proc_stacks,
    "proc-stacks-tail": parse_proc_stacks,
}


# -- inputs -----------------------------------------------------------------------------------------


def _gunzip(path: Path) -> bytes:
    return gzip.decompress(path.read_bytes())


def _graph_body() -> bytes:
    """The hand-written graph without its header and its unbalanced ends, so copies nest cleanly."""
    lines = (DATA / "ftrace" / "function_graph.txt").read_bytes().splitlines(keepends=True)
    body = [line for line in lines if not line.startswith(b"#")][1:]  # the exit whose entry is missing
    return b"".join(body) + b" 1) $ 3594275 us  |    }\n 1) $ 3594276 us  |  }\n"


def _graph_no_duration() -> bytes:
    """The same calls without the duration column (`funcgraph -D`): ` 0)   name();`, the body right
    after the CPU column."""
    lines = _graph_body().splitlines(keepends=True)
    return b"".join(
        head[: head.index(b")") + 1] + b" " + body[2:]
        for head, _, body in (line.partition(b"|") for line in lines)
    )


def _utf16(body: bytes) -> tuple[bytes, bytes]:
    """What PowerShell's `>` writes: a UTF-16 byte order mark once, then little-endian UTF-16."""
    return codecs.BOM_UTF16_LE, body.decode().encode("utf-16-le")


def _dtrace_body() -> bytes:
    text = (DATA / "dtrace" / "ustack_count.txt").read_bytes()
    return text[text.index(b"\n\n") :]


def _csv_events() -> tuple[bytes, bytes]:
    """The recorded fsync loop's events: its header once, its rows repeated."""
    header, _, body = (DATA / "tabular" / "fsync_events.csv").read_bytes().partition(b"\n")
    return header + b"\n", body


def sources(corpus: Path) -> dict[str, tuple[bytes, bytes]]:
    """Format -> (header written once, body repeated)."""
    return {
        "perf-sched": (b"", _gunzip(corpus / "captures" / "offcpu5s.perf.txt.gz")),
        "perf-trace": (b"", _gunzip(corpus / "captures" / "perf_trace.mmap_fsync_futex.txt.gz")),
        "perf-trace-events": (b"", (DATA / "perf_trace" / "no_inherit_tracepoints.txt").read_bytes()),
        "stap-faults": (b"", (DATA / "stap" / "faults.txt").read_bytes()),
        "ftrace-events": (b"", _gunzip(DATA / "trace_cmd" / "block_wakeup.report.txt.gz")),
        "ftrace-graph": (b"# tracer: function_graph\n", _graph_body()),
        "ftrace-graph-nodur": (b"# tracer: function_graph\n", _graph_no_duration()),
        "collapsed": (
            b"",
            _gunzip(corpus / "captures" / "derived" / "cpu20s.collapsed.inferno-default.txt.gz"),
        ),
        "collapsed-utf16": _utf16(
            _gunzip(corpus / "captures" / "derived" / "cpu20s.collapsed.inferno-default.txt.gz")
        ),
        "dtrace": (b"dtrace: description 'profile-997 ' matched 1 probe\n", _dtrace_body()),
        "events-csv": _csv_events(),
        "proc-stacks": (b"", (DATA / "proc_stacks" / "pid_state.txt").read_bytes()),
        "proc-stacks-tail": (b"", (DATA / "proc_stacks" / "tail_date.txt").read_bytes()),
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


def naive_csv_events(stream: BinaryIO) -> int:
    """What a first script does with an events CSV: `csv.reader`, the time and duration converted,
    the other cells kept in a dict per row."""
    rows = csv.reader(line.decode() for line in stream)
    names = next(rows)
    count = 0
    for row in rows:
        int(row[0])
        float(row[2])
        dict(zip(names[3:], row[3:], strict=True))
        count += 1
    return count


NAIVE: dict[str, Callable[[BinaryIO], int]] = {"events-csv": naive_csv_events}
"""Baselines other than splitting lines into words, for formats where that would be no baseline."""


def measure(fmt: str, kind: str, path: Path) -> dict[str, float]:
    report = ParseReport()
    wall, cpu = time.perf_counter(), time.process_time()
    with path.open("rb") as stream:
        if kind == "naive":
            records = NAIVE.get(fmt, naive)(stream)
        else:
            records = sum(1 for _ in PARSERS[fmt](stream, report))
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
    with tempfile.TemporaryDirectory(prefix="stallscope-events-bench-", dir=args.workdir) as tmp:
        yardstick = yardstick_for(args.size_mb * 1e6, args.corpus)
        yardsticks = measure_baselines(yardstick, Path(tmp), "perf script of about this size")
    print_baselines(yardsticks, cpu_time=True)
    print(
        f"{'format':16} {'input MB':>8} {'parser MB/s':>11} {'records/s':>10} {'RSS MiB':>8}"
        f"   {'naive MB/s':>10} {'ratio':>6}  target   against the yardsticks"
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
                f"{fmt:16} {size / 1e6:8.0f} {mb_s:11.1f} {ours['records'] / ours['cpu_s']:10.0f} "
                f"{ours['rss_mib']:8.0f}   {naive_mb_s:10.1f} {mb_s / naive_mb_s:6.2f}  {verdict:6}   "
                f"{versus(yardsticks, mb_per_s=mb_s, cpu_time=True)}",
                flush=True,
            )
            path.unlink()
    print(
        f"MB = 10^6 bytes of text per CPU second; one core; best of {args.repeat}; records counted, not kept"
    )


if __name__ == "__main__":
    main()
