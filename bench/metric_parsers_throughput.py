"""Throughput of the metric importers on one core, each beside a naive parse of the same input.

    python bench/metric_parsers_throughput.py                # every format, >= 50 MB each
    python bench/metric_parsers_throughput.py --size-mb 200  # bigger inputs
    python bench/metric_parsers_throughput.py --only csv-long,prometheus

Inputs are built by repeating sample data with its times moved on: the recorded sysstat outputs in
`backend/tests/ingest/data/sysstat/` (one interval repeated, one second apart, so they run for days
and cross midnight) and small hand-made samples for the application formats. The importer is timed
to the last record it yields (points are counted, not stored; a `MetricRow` counts a point per
value); the naive baseline is what a first script would do: `str.split` and `float()` per sysstat
row, `csv.reader` and `float()` per CSV row (text cells skipped), `json.loads` per JSON line,
`json.load` of the whole Prometheus document. Each measurement runs in its own process, so its peak
RSS is its own, and the best of `--repeat` runs is kept. MB/s is input over CPU time, so a busy
machine skews it less than wall time would; MB are 10^6 bytes of input, and `ratio` is the
importer's speed over the naive baseline's. The two yardsticks every benchmark prints
(`baselines.py`: the naive collapse and `inferno-collapse-perf --nthreads 1`) are timed in the same
run over a `perf script` input of about `--size-mb` (the corpus's `cpu20s`, or the deep capture past
150 MB), and each importer's MB/s is given against them.

The densest formats (vmstat, wide CSV) hold a value every six or seven bytes: at 30 MB/s that leaves
about 200 ns a value, about what building one `MetricPoint` and handing it over costs in CPython. So
row-shaped formats yield one `MetricRow` per line (a time, a shared column layout, the values) rather
than a point per value.
"""

from __future__ import annotations

import argparse
import csv
import datetime as dt
import json
import random
import re
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import BinaryIO

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "backend"))
sys.path.insert(0, str(REPO / "bench"))

from baselines import DEFAULT_CORPUS, measure_baselines, print_baselines, versus, yardstick_for  # noqa: E402

from stallscope.ingest.appmetrics import csv_metrics, jsonl_metrics, proc_sampler, prometheus  # noqa: E402
from stallscope.ingest.model import MetricRow, ParseReport, Record  # noqa: E402
from stallscope.ingest.registry import Importer  # noqa: E402
from stallscope.ingest.sysstat import IMPORTER as SYSSTAT  # noqa: E402

SYSSTAT_DATA = REPO / "backend" / "tests" / "ingest" / "data" / "sysstat"
START = dt.datetime(2026, 11, 21, 22, 0, 0, tzinfo=dt.UTC)
START_NS = int(START.timestamp()) * 1_000_000_000
_TIME_OF_DAY = re.compile(r"^\d\d:\d\d:\d\d", re.MULTILINE)
TARGET_MB_S = 30.0


# -- inputs: sample data repeated with moved times -----------------------------------------------


def _sysstat_blocks(name: str, first: int, last: int) -> Callable[[int], str]:
    """Lines `first..last` (1-based) of a recording, one interval, with every time of day moved."""
    lines = (SYSSTAT_DATA / name).read_text().splitlines(keepends=True)
    block = "".join(lines[first - 1 : last])

    def copy(i: int) -> str:
        end = START + dt.timedelta(seconds=i + 1)
        start = end - dt.timedelta(seconds=1)
        moved = _TIME_OF_DAY.sub(end.strftime("%H:%M:%S"), block)
        # Header rows carry the interval's start, data rows its end: the first row of each block is a header.
        return moved.replace(end.strftime("%H:%M:%S"), start.strftime("%H:%M:%S"), 1)

    return copy


def _banner(name: str) -> str:
    return (SYSSTAT_DATA / name).read_text().splitlines(keepends=True)[0].replace(
        "11/22/26", "11/21/26"
    ) + "\n"


def _iostat(i: int) -> str:
    lines = (SYSSTAT_DATA / "iostat_x_t.txt").read_text().splitlines(keepends=True)
    body = "".join(lines[3:10])
    stamp = (START + dt.timedelta(seconds=i)).strftime("%m/%d/%y %H:%M:%S")
    return f"{stamp}\n{body}"


def _vmstat(i: int) -> str:
    row = (SYSSTAT_DATA / "vmstat_t.txt").read_text().splitlines()[3]
    stamp = (START + dt.timedelta(seconds=i)).strftime("%Y-%m-%d %H:%M:%S")
    return row[: -len(stamp)] + stamp + "\n"


_HOSTS = ["db1", "db2", "api1", "api2"]
_NAMES = ["latency_ms", "naks", "queue_depth", "rtt_us"]


def _csv_long(i: int) -> str:
    t = START_NS // 1_000_000 + i * 10
    return "".join(
        f"{t},{name},{(i * 7 + k) % 1000 / 10},{host},eu-west\n"
        for k, (name, host) in enumerate((n, h) for n in _NAMES for h in _HOSTS)
    )


def _csv_wide(i: int) -> str:
    return (
        f"{START_NS // 1_000_000 + i * 10},{i % 97 / 10},{i % 5},{i % 31},{1200 + i % 400},{i % 1000 / 10}\n"
    )


def _csv_cpu_rows(i: int) -> str:
    """A row per CPU at each time, `cpu` = `all`, 0, 1 (text: a label), as the recorded CPU shares."""
    t = START_NS // 1_000_000 + i * 100
    return "".join(
        f"{t},{cpu},{(i * 7 + k) % 1000 / 10},{(i + k) % 300 / 10},{k % 40 / 10}\n"
        for k, cpu in enumerate(("all", "0", "1"))
    )


def _wide_text(i: int) -> str:
    """A row per time with text columns (skipped), as the recorded application metrics."""
    phase = "warmup" if i < 50 else "steady"
    return (
        f"{START_NS // 1_000 + i * 100_000},vm,{phase},{i % 9000 / 10},{i % 400 / 100},{i % 30000 / 10},"
        f"{300 + i % 50}\n"
    )


def _jsonl_long(i: int) -> str:
    t = START_NS // 1_000_000 + i * 10
    return "".join(
        f'{{"ts": {t}, "name": "{name}", "value": {(i + k) % 1000 / 10}, "labels": {{"host": "{host}"}}}}\n'
        for k, (name, host) in enumerate((n, h) for n in _NAMES for h in _HOSTS)
    )


def _jsonl_wide(i: int) -> str:
    t = START_NS // 1_000_000 + i * 10
    values = f'"latency_ms": {i % 97 / 10}, "naks": {i % 5}, "rtt_us": {1200 + i % 400}'
    return f'{{"ts": {t}, {values}, "host": "db1"}}\n'


_STATES = "RSSSDSSI"
PROC_HEADER = (
    '{"stallscope": "proc-sampler", "version": 1, "host": "db1", "interval_ms": 50, "target_pids": [4242]}\n'
)


def _proc(i: int) -> str:
    t = START_NS + i * 50_000_000
    lines = [
        f'{{"t": {t}, "name": "thread.state", "labels": {{"pid": "4242", "tid": "{4242 + k}", '
        f'"comm": "worker-{k}", "state": "{_STATES[(i + k) % len(_STATES)]}"}}, "value": 1}}\n'
        for k in range(16)
    ]
    lines += [
        f'{{"t": {t}, "name": "cpu.{field}", "labels": {{"cpu": "{cpu}"}}, "value": {(i * 3 + cpu) % 100}}}\n'
        for cpu in range(2)
        for field in ("user", "system", "iowait", "idle")
    ]
    lines.append(
        f'{{"t": {t}, "name": "mem.MemAvailable", "labels": {{}}, "value": {23_000_000 - i % 5000}}}\n'
    )
    return "".join(lines)


def _write(path: Path, size_mb: int, head: str, copy: Callable[[int], str]) -> None:
    with path.open("w") as out:
        out.write(head)
        i = 0
        while out.tell() < size_mb * 1_000_000:
            out.write("".join(copy(i + k) for k in range(1000)))
            i += 1000


def _write_prometheus(path: Path, size_mb: int) -> None:
    rng = random.Random(1)
    with path.open("w") as out:
        out.write('{"status":"success","data":{"resultType":"matrix","result":[')
        series = 0
        while out.tell() < size_mb * 1_000_000:
            labels = {
                "__name__": "http_request_duration_seconds",
                "job": "api",
                "instance": f"10.0.0.{series}:9100",
            }
            values = ",".join(
                f'[{1700000000 + t * 15}.{t % 1000:03d},"{rng.random():.6g}"]' for t in range(11_000)
            )
            out.write(("," if series else "") + f'{{"metric":{json.dumps(labels)},"values":[{values}]}}')
            series += 1
        out.write("]}}")


FORMATS: dict[str, tuple[Importer, Callable[[Path, int], None]]] = {
    "mpstat": (
        SYSSTAT,
        lambda p, mb: _write(p, mb, _banner("mpstat_P_ALL.txt"), _sysstat_blocks("mpstat_P_ALL.txt", 3, 7)),
    ),
    "sar-u-r-B": (
        SYSSTAT,
        lambda p, mb: _write(p, mb, _banner("sar_u_r_B.txt"), _sysstat_blocks("sar_u_r_B.txt", 3, 11)),
    ),
    "iostat-x-t": (SYSSTAT, lambda p, mb: _write(p, mb, _banner("iostat_x_t.txt"), _iostat)),
    "vmstat-t": (
        SYSSTAT,
        lambda p, mb: _write(
            p, mb, "".join((SYSSTAT_DATA / "vmstat_t.txt").read_text().splitlines(True)[:2]), _vmstat
        ),
    ),
    "csv-long": (csv_metrics.IMPORTER, lambda p, mb: _write(p, mb, "ts,name,value,host,region\n", _csv_long)),
    "csv-wide": (
        csv_metrics.IMPORTER,
        lambda p, mb: _write(p, mb, "ts,latency_ms,naks,queue_depth,rtt_us,cpu_pct\n", _csv_wide),
    ),
    "csv-long-text": (
        csv_metrics.IMPORTER,
        lambda p, mb: _write(p, mb, "ts_ms,cpu,user_pct,system_pct,iowait_pct\n", _csv_cpu_rows),
    ),
    "csv-wide-text": (
        csv_metrics.IMPORTER,
        lambda p, mb: _write(
            p,
            mb,
            "epoch_us,host,phase,fsync_p99_us,request_p99_ms,lock_wait_p99_us,requests\n",
            _wide_text,
        ),
    ),
    "jsonl-long": (jsonl_metrics.IMPORTER, lambda p, mb: _write(p, mb, "", _jsonl_long)),
    "jsonl-wide": (jsonl_metrics.IMPORTER, lambda p, mb: _write(p, mb, "", _jsonl_wide)),
    "prometheus": (prometheus.IMPORTER, _write_prometheus),
    "stallscope-proc": (
        proc_sampler.IMPORTER,
        lambda p, mb: _write(
            p,
            mb,
            PROC_HEADER,
            _proc,
        ),
    ),
}


# -- naive baselines -----------------------------------------------------------------------------


def _floats(words: Iterator[str] | list[str]) -> int:
    count = 0
    for word in words:
        try:
            float(word)
        except ValueError:
            continue
        count += 1
    return count


def naive_sysstat(stream: BinaryIO) -> int:
    return sum(_floats(line.decode().split()[1:]) for line in stream)


def naive_csv(stream: BinaryIO) -> int:
    rows = csv.reader(line.decode() for line in stream)
    header = next(rows)
    count = 0
    if "value" in header:
        at = header.index("value")
        for row in rows:
            int(row[0])
            float(row[at])
            count += 1
        return count
    for row in rows:
        int(row[0])
        count += _floats(row[1:])
    return count


def naive_jsonl(stream: BinaryIO) -> int:
    count = 0
    for line in stream:
        obj = json.loads(line)
        if "value" in obj:
            float(obj["value"])
            count += 1
        else:
            count += sum(1 for v in obj.values() if isinstance(v, int | float))
    return count


def naive_prometheus(stream: BinaryIO) -> int:
    count = 0
    for series in json.load(stream)["data"]["result"]:
        for t, v in series["values"]:
            float(t)
            float(v)
            count += 1
    return count


NAIVE: dict[str, Callable[[BinaryIO], int]] = {
    "mpstat": naive_sysstat,
    "sar-u-r-B": naive_sysstat,
    "iostat-x-t": naive_sysstat,
    "vmstat-t": naive_sysstat,
    "csv-long": naive_csv,
    "csv-wide": naive_csv,
    "csv-long-text": naive_csv,
    "csv-wide-text": naive_csv,
    "jsonl-long": naive_jsonl,
    "jsonl-wide": naive_jsonl,
    "prometheus": naive_prometheus,
    "stallscope-proc": naive_jsonl,
}


# -- one measurement, in a child process ---------------------------------------------------------


def measure(fmt: str, kind: str, path: Path) -> dict[str, float]:
    with path.open("rb") as stream:
        start = time.process_time()
        if kind == "naive":
            points = NAIVE[fmt](stream)
            warnings = 0
        else:
            report = ParseReport()
            points = count_points(FORMATS[fmt][0].parse(stream, report))
            warnings = len(report.warnings) - sum(1 for w in report.warnings if w.line == 0)
        seconds = time.process_time() - start
    peak_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return {
        "seconds": seconds,
        "bytes": path.stat().st_size,
        "points": points,
        "warnings": warnings,
        "peak_rss_mib": peak_kib / 1024,
    }


def count_points(records: Iterable[Record]) -> int:
    """Points the records stand for: one per point, one per value of a row."""
    count = 0
    for record in records:
        count += len(record.values) if type(record) is MetricRow else 1
    return count


def run_child(*args: str) -> str:
    result = subprocess.run([sys.executable, __file__, *args], check=True, capture_output=True, text=True)
    return result.stdout


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--size-mb", type=int, default=50, help="size of each generated input (default 50)")
    parser.add_argument("--only", help="comma-separated formats: " + ", ".join(FORMATS))
    parser.add_argument("--repeat", type=int, default=3, help="runs per measurement, best kept (default 3)")
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS, help="the shared corpus (baselines)")
    parser.add_argument("--measure", nargs=3, metavar=("FORMAT", "KIND", "FILE"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        fmt, kind, file = args.measure
        print(json.dumps(measure(fmt, kind, Path(file))))
        return

    chosen = args.only.split(",") if args.only else list(FORMATS)
    with tempfile.TemporaryDirectory(prefix="stallscope-metrics-bench-") as tmp:
        yardstick = yardstick_for(args.size_mb * 1e6, args.corpus)
        yardsticks = measure_baselines(yardstick, Path(tmp), "perf script of about this size")
    print_baselines(yardsticks, cpu_time=True)
    print(
        f"{'format':16} {'parser MB/s':>11} {'points/s':>11} {'RSS MiB':>8}   "
        f"{'naive MB/s':>10} {'RSS MiB':>8} {'ratio':>6}  target   against the yardsticks"
    )
    with tempfile.TemporaryDirectory(prefix="stallscope-metrics-bench-") as tmp:
        for fmt in chosen:
            path = Path(tmp) / f"{fmt}.txt"
            FORMATS[fmt][1](path, args.size_mb)
            ours = best(args.repeat, "--measure", fmt, "parser", str(path))
            naive = best(args.repeat, "--measure", fmt, "naive", str(path))
            verdict = "ok" if mb_s(ours) >= TARGET_MB_S else f"< {TARGET_MB_S:.0f}"
            line = (
                f"{fmt:16} {mb_s(ours):11.1f} {ours['points'] / ours['seconds']:11,.0f} "
                f"{ours['peak_rss_mib']:8.0f}   {mb_s(naive):10.1f} {naive['peak_rss_mib']:8.0f} "
                f"{mb_s(ours) / mb_s(naive):6.2f}  {verdict:6}   "
                f"{versus(yardsticks, mb_per_s=mb_s(ours), cpu_time=True)}"
            )
            if ours["warnings"]:
                line += f"   ({ours['warnings']:.0f} warnings)"
            print(line, flush=True)
            path.unlink()
    print(
        f"inputs: {args.size_mb} MB each (10^6 bytes); one core; best of {args.repeat}; "
        "points counted, not stored"
    )


def best(repeat: int, *args: str) -> dict[str, float]:
    """The fastest of `repeat` runs of one measurement, each in a fresh process."""
    runs = [json.loads(run_child(*args)) for _ in range(repeat)]
    return min(runs, key=lambda run: run["seconds"])


def mb_s(run: dict[str, float]) -> float:
    return run["bytes"] / 1e6 / run["seconds"]


if __name__ == "__main__":
    main()
