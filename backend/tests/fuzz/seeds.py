"""Seed inputs for the importer fuzz tests: the start of every real capture we have, per format.

Mutating a real capture reaches far deeper into a parser than random bytes do, which a parser
refuses at its first line. Seeds are the first lines of the shared corpus's captures, the inputs
under `tests/ingest/data/`, and, for the formats neither has (the collector's snapshot and /proc
sampler output, Prometheus query results, metrics as JSON lines and CSV, a console's exported stored
records), small texts written here in their published layouts. Each seed is filed under the importer
the registry picks for it, so a new importer with test data is seeded without this module naming it.
"""

from __future__ import annotations

import functools
import gzip
import json
from dataclasses import dataclass
from pathlib import Path

from stallscope.ingest.model import ParseError
from stallscope.ingest.registry import HEAD_BYTES, detect_importer
from tests.fixtures.corpus import corpus_dir, corpus_missing
from tests.ingest.test_appmetrics_prometheus import RANGE

SEED_SIZES = ((60, 6 * 1024), (400, 24 * 1024))
"""(lines, bytes) a seed is cut to: the first that the registry still files under the same importer as
the whole file (a scheduler capture may show its first switch a few dozen lines in). Small enough
that a parse takes milliseconds."""

DATA_DIR = Path(__file__).resolve().parents[1] / "ingest" / "data"
CORPUS_PATTERNS = (
    "perf-script/flamegraph/*.txt",
    "perf-script/flamegraph/*.txt.gz",
    "perf-script/inferno/collapse-perf/*.txt",
    "perf-script/inferno/diff-folded/*.txt",
    "captures/*.txt.gz",
    "captures/derived/*.txt.gz",
    "captures/clockmono/*.txt",
    "captures/clockmono/*.txt.gz",
)
"""Captures of the corpus (not the expected outputs beside them) whose starts are seeds."""


@dataclass(frozen=True, slots=True)
class Seed:
    """A named start of a real or published-format input."""

    name: str
    data: bytes


def _snapshot() -> bytes:
    document = {
        "stallscope": "snapshot",
        "version": 1,
        "host": "db-7",
        "taken_at_ns": 1_763_712_000_000_000_000,
        "sections": {
            "kernel": {"uname": "Linux db-7 6.1.0-18-amd64 #1 SMP x86_64 GNU/Linux"},
            "cpu": {"count": 2, "online": "0-1", "governors": ["performance", "performance"]},
            "transparent_hugepage": {"enabled": "always [madvise] never"},
            "vm": {"swappiness": "60", "dirty_ratio": "20"},
            "processes": {"4242": {"comm": "postgres", "threads": 12, "error": None}},
        },
    }
    return json.dumps(document, indent=2).encode()


_PROC_SAMPLER = b"""\
{"stallscope": "proc-sampler", "version": 1, "host": "db1", "interval_ms": 50, "target_pids": [1234]}
{"t": 1795307311000000000, "name": "cpu.user", "labels": {"cpu": "0"}, "value": 12.5}
{"t": 1795307311000000000, "name": "cpu.iowait", "labels": {"cpu": "1"}, "value": 40.0}
{"t": 1795307311000000000, "name": "mem.MemAvailable", "labels": {}, "value": 123456}
{"t": 1795307311050000000, "name": "thread.state", "labels": {"pid": "1234", "tid": "1235", \
"comm": "java", "state": "D"}, "value": 1}
{"t": 1795307311050000000, "name": "disk.io_ms", "labels": {"device": "nvme0n1"}, "value": 830}
{"t": 1795307311050000000, "name": "pressure.io.full.avg10", "labels": {}, "value": 2.5}
"""

_PROMETHEUS_RANGE = RANGE  # the importer tests' own query_range answer
_PROMETHEUS_INSTANT = {
    "status": "success",
    "data": {
        "resultType": "vector",
        "result": [{"metric": {"__name__": "node_load1", "instance": "db1"}, "value": [1700000000, "0.42"]}],
    },
}

_JSONL_LONG = b"""\
{"ts": 1700000000123, "name": "latency_ms", "value": 3.5, "labels": {"host": "db1"}}
{"ts": 1700000000124, "name": "latency_ms", "value": 4, "labels": {"host": "db2"}}
{"ts": 1700000000125, "name": "queue_depth", "value": "7", "unit": "requests"}
{"ts": 1700000000126, "name": "latency_ms", "value": 2.25, "labels": {"host": "db1"}}
"""
_JSONL_WIDE = b"""\
{"time": "2026-11-22T00:28:01.250Z", "latency_ms": 3.1, "naks": 2, "host": "db1"}
{"time": "2026-11-22T00:28:02.250Z", "latency_ms": 2.9, "naks": 0, "host": "db1"}
{"time": "2026-11-22T00:28:03.250Z", "latency_ms": 40.5, "naks": 7, "host": "db1"}
"""
_CSV_LONG = b"""\
ts,name,value,host,region
1700000000123,latency_ms,3.5,db1,eu
1700000000124,latency_ms,4,db2,
1700000000125,naks,2,db1,eu
"""
_CSV_WIDE = b"""\
time,latency_ms,naks,"rtt_us{host=""db1"",dc=""x""}"
1700000000,3.1,2,120
1700000001,,3,
1700000002,2.5,0,118
"""

_RECORDS = b"""\
{"format":"stallscope-records","version":1,"capture":{"filename":"cpu.perf.txt","host":"db1","format":\
"perf-script","kind":"cpu","status":"partial","clock":{"mode":"unaligned","offset_ns":0,"shift_ns":0},\
"meta":{},"timed":true,"sample_events":[{"name":"cpu-clock","samples":2,"weight":2002002,"unit":"ns"}],\
"counts":{"samples":2,"stacks":2,"threads":2,"records":{"samples":2,"events":2,"metric_points":2,\
"documents":1}},"report":{"dropped_lines":1,"truncated":false,"limits":[],"warnings":[{"line":9,\
"message":"a frame line outside a sample; dropped it"}]}}}
["frame",0,"kernel","__schedule"]
["frame",1,"user","main"]
["frame",2,"jit","Interpreter"]
["stack",0,[1,2]]
["stack",1,[1,0]]
["stack",2,[]]
["sample",10987000123000,15687,15690,"hot_locker",1,"cpu-clock",1001001,0]
["sample",10987001124000,15687,15691,"cold_locker",null,"cpu-clock",1001001,2]
["event",10987002000000,2500000,"off-cpu","S",15687,15690,"hot_locker",0,"S",1,15691,null,null,null]
["event",10987005000000,null,"syscall","futex",15687,15691,"cold_locker",1,null,2,null,"uaddr: 0x5593",\
"0",{"op":"WAIT"}]
["series",0,"cpu.util",{"cpu":"0"},"%"]
["point",0,10987000000000,12.5]
["point",0,10987001000000,"NaN"]
["document","snapshot",{"stallscope":"snapshot","version":1,"host":"db1","sections":{}}]
"""

PUBLISHED_FORMATS = (
    Seed("snapshot.json", _snapshot()),
    Seed("proc-sampler.jsonl", _PROC_SAMPLER),
    Seed("prometheus-range.json", json.dumps(_PROMETHEUS_RANGE).encode()),
    Seed("prometheus-instant.json", json.dumps(_PROMETHEUS_INSTANT, indent=1).encode()),
    Seed("stallscope-records.jsonl", _RECORDS),
    Seed("metrics-long.jsonl", _JSONL_LONG),
    Seed("metrics-wide.jsonl", _JSONL_WIDE),
    Seed("metrics-long.csv", _CSV_LONG),
    Seed("metrics-wide.csv", _CSV_WIDE),
)
"""Inputs for the formats no capture here is in, written in their published layouts."""


def _read_head(path: Path) -> bytes:
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rb") as file:
        data: bytes = file.read(HEAD_BYTES)
    return data


def _first_lines(data: bytes, most_lines: int, most_bytes: int) -> bytes:
    if len(data) <= most_bytes and data.count(b"\n") <= most_lines:
        return data
    lines = data[:most_bytes].split(b"\n")
    lines.pop()  # after the last newline: a line the byte limit may have cut
    return b"".join(line + b"\n" for line in lines[:most_lines])


def seed_of(name: str, path: Path) -> Seed:
    """The first lines of a (possibly gzipped) file, as few as keep it the same format to the registry."""
    head = _read_head(path)
    whole = importer_of(head)
    for most_lines, most_bytes in SEED_SIZES:
        data = _first_lines(head, most_lines, most_bytes)
        if importer_of(data) == whole:
            break
    return Seed(name, data)


def data_seeds() -> list[Seed]:
    """The starts of the importer tests' own inputs."""
    paths = sorted(p for p in DATA_DIR.rglob("*") if p.is_file() and p.suffix != ".md" and p.suffix != ".sh")
    return [seed_of(str(p.relative_to(DATA_DIR)), p) for p in paths]


def corpus_seeds() -> list[Seed]:
    """The starts of the corpus's captures; none when the corpus is absent (`corpus_missing` says why)."""
    if corpus_missing():
        return []
    root = corpus_dir()
    paths = sorted({path for pattern in CORPUS_PATTERNS for path in root.glob(pattern)})
    return [seed_of(str(p.relative_to(root)), p) for p in paths]


def importer_of(data: bytes) -> str | None:
    """The name of the importer the registry picks for `data`, or None when none accepts it."""
    try:
        return detect_importer(data[:HEAD_BYTES]).name
    except ParseError:
        return None


@functools.cache
def seeds_by_importer() -> dict[str | None, tuple[Seed, ...]]:
    """Every seed, filed under the name of the importer that claims it (None: claimed by none)."""
    filed: dict[str | None, list[Seed]] = {}
    for seed in [*corpus_seeds(), *data_seeds(), *PUBLISHED_FORMATS]:
        filed.setdefault(importer_of(seed.data), []).append(seed)
    return {name: tuple(seeds) for name, seeds in filed.items()}


def all_seeds() -> tuple[Seed, ...]:
    return tuple(seed for seeds in seeds_by_importer().values() for seed in seeds)


def seeds_for(importer: str) -> tuple[Seed, ...]:
    """The importer's own seeds; every seed when it has none, so that a new importer is still fuzzed
    with text that looks like a capture."""
    return seeds_by_importer().get(importer) or all_seeds()
