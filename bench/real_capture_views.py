"""Flame graphs and diffs on a real deep capture: first requests, repeats, new ranges, memory.

    python bench/real_capture_views.py                 # bench/captures/deep-compile/cpu.perf.txt.gz
    python bench/real_capture_views.py FILE            # any perf script capture
    python bench/real_capture_views.py --browsed 10    # memory with ten such captures browsed
    python bench/real_capture_views.py --database-url postgresql://...   # e.g. a TimescaleDB server

The capture is uploaded the way the console stores uploads and parsed by the worker's parse job
(timed: upload to ready). Then a fresh process opens it through the real FastAPI app, as a browser
would, and times each request's server time:

- the whole capture's flame graph, first request (no tree, weights or frame names cached in the
  process) and the same request again;
- flame graphs of new 10-second ranges, each a first request for its range;
- a zoom (the heaviest process), and a diff of the first half against the second, first request;
- the whole graph and that diff as first requests again, five times, every cache cleared before
  each, in the same process (warmed by the views before, as a running console is);
- the resident memory of a real API process (`stallscope serve --no-worker`, asked over HTTP the
  same views) after them, and after `--browsed` copies of the capture (each its own capture, parsed
  on its own) were each opened once (whole, and one range).

Requests ask for what the console's front end asks: 50,000 nodes at most, 256 levels deep.
Baselines, measured in the same run on the same file (`bench/baselines.py`): a naive Python
collapse and `inferno-collapse-perf --nthreads 1`, with the ratios of each figure against them.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path
from statistics import median
from typing import Any

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH.parent / "backend"))
sys.path.insert(0, str(BENCH))

DEFAULT_CAPTURE = BENCH / "captures" / "deep-compile" / "cpu.perf.txt.gz"
MAX_NODES = 50_000
MAX_DEPTH = 256
RANGE = timedelta(seconds=10)
NEW_RANGES = 5
WARM_REPEATS = 5


def _child(*args: str) -> dict[str, Any]:
    """This script in a fresh process (its memory is its own); the JSON it prints last."""
    result = subprocess.run(
        [sys.executable, __file__, *args], check=True, capture_output=True, text=True, env=dict(os.environ)
    )
    figures: dict[str, Any] = json.loads(result.stdout.strip().splitlines()[-1])
    return figures


def measure_naive(plain: Path) -> dict[str, float]:
    """The naive collapse of the decompressed capture (`baselines.naive_collapse`), in this process."""
    from baselines import naive_collapse

    with plain.open("rb") as stream:
        start = time.perf_counter()
        naive_collapse(stream)
        seconds = time.perf_counter() - start
    return {"seconds": seconds, "mb_per_s": plain.stat().st_size / 1e6 / seconds}


def measure_baselines(path: Path, tmp: Path) -> tuple[dict[str, float], dict[str, float] | None]:
    """The naive collapse and `inferno-collapse-perf --nthreads 1` of the capture, same run."""
    from baselines import INFERNO_MISSING, decompressed, find_inferno, inferno_command, run_timed

    plain = decompressed(path, tmp)
    naive = _child("--naive", str(plain))
    tool = find_inferno()
    if tool is None:
        print(INFERNO_MISSING)
        return naive, None
    seconds = run_timed(inferno_command(tool, plain)).seconds
    inferno = {"seconds": seconds, "mb_per_s": plain.stat().st_size / 1e6 / seconds}
    plain.unlink()
    return naive, inferno


def measure_parse(capture_id: int) -> dict[str, float]:
    from stallscope.captures.parsing import parse_capture

    start = time.perf_counter()
    parse_capture(os.environ["DATABASE_URL"], capture_id)
    return {"seconds": time.perf_counter() - start}


Get = Callable[..., tuple[float, bytes]]
"""A view request: `get(path, **params)` gives its time and body."""


def browse(get: Get, capture_ids: list[int], memory: Callable[[], float] | None = None) -> dict[str, Any]:
    """What someone opening the captures does, timed: the first capture's whole flame graph (first
    request, then again), a zoom, new 10 s ranges, a diff of its halves; then each other capture's
    whole flame graph and one range. `memory` is read after the first capture's views and at the end."""
    first = str(capture_ids[0])
    timings: dict[str, Any] = {}

    def timed(path: str, **params: str) -> tuple[float, bytes]:
        return get(path, max_nodes=str(MAX_NODES), max_depth=str(MAX_DEPTH), **params)

    facets = json.loads(get("/api/facets", captures=first)[1])
    start_at = datetime.fromisoformat(facets["time_start"])
    end_at = datetime.fromisoformat(facets["time_end"])
    timings["whole_first"], body = timed("/api/flame", captures=first)
    timings["whole_again"], _ = timed("/api/flame", captures=first)
    whole = json.loads(body)
    timings["nodes"] = {
        "sent": whole["node_count"],
        "folded": whole["pruned_nodes"],
        "samples": whole["total_samples"],
    }
    heaviest = max(whole["root"]["children"], key=lambda c: c["value"])["name"]
    del whole, body
    timings["zoom"], _ = timed("/api/flame", captures=first, focus=json.dumps([heaviest]))
    span = end_at - start_at
    step = (span - RANGE) / max(NEW_RANGES - 1, 1)
    ranges = []
    for i in range(NEW_RANGES):
        low = start_at + step * i
        seconds, _ = timed("/api/flame", captures=first, start=low.isoformat(), end=(low + RANGE).isoformat())
        ranges.append(seconds)
    timings["ranges"] = ranges
    timings["diff_first"], diff = timed("/api/diff", **halves(first, start_at, end_at))
    timings["diff_nodes"] = json.loads(diff)["node_count"]
    del diff
    if memory is not None:
        timings["rss_one_mib"] = memory()
    for capture_id in capture_ids[1:]:
        timed("/api/flame", captures=str(capture_id))
        low = start_at + step
        timed("/api/flame", captures=str(capture_id), start=low.isoformat(), end=(low + RANGE).isoformat())
    if memory is not None:
        timings["rss_all_mib"] = memory()
    return timings


def halves(capture: str, start_at: datetime, end_at: datetime) -> dict[str, str]:
    """A diff's parameters: the capture's first half against its second."""
    middle = start_at + (end_at - start_at) / 2
    return {
        "a.captures": capture,
        "a.start": start_at.isoformat(),
        "a.end": middle.isoformat(),
        "b.captures": capture,
        "b.start": middle.isoformat(),
        "b.end": (end_at + timedelta(seconds=1)).isoformat(),
    }


def first_requests_again(get: Get, capture: str, clear: Callable[[], None]) -> dict[str, list[float]]:
    """The whole graph and the diff of the halves, each a first request again (`clear` empties the
    process's caches before each pair), in a process that has answered views before, as a running
    console has: its first view also pays for memory the process touches for the first time."""
    facets = json.loads(get("/api/facets", captures=capture)[1])
    start_at = datetime.fromisoformat(facets["time_start"])
    end_at = datetime.fromisoformat(facets["time_end"])
    limits = {"max_nodes": str(MAX_NODES), "max_depth": str(MAX_DEPTH)}
    timings: dict[str, list[float]] = {"whole": [], "diff": []}
    for _ in range(WARM_REPEATS):
        clear()
        timings["whole"].append(get("/api/flame", captures=capture, **limits)[0])
        timings["diff"].append(get("/api/diff", **halves(capture, start_at, end_at), **limits)[0])
    return timings


def measure_views(capture_ids: list[int]) -> dict[str, Any]:
    """Server time of each view through the app in this (fresh) process, caches cleared first: the
    console's own `Server-Timing` (its time to answer, without the body's transfer to the client)."""
    import process_caches
    from fastapi.testclient import TestClient
    from signed_in import admin_headers

    from stallscope.kit.server_timing import server_ms
    from stallscope.main import create_app

    with TestClient(
        create_app(), base_url="http://localhost", headers=admin_headers(os.environ["DATABASE_URL"])
    ) as client:

        def get(path: str, **params: str) -> tuple[float, bytes]:
            response = client.get(path, params=params)
            response.raise_for_status()
            took = server_ms(response.headers.get("server-timing"))
            assert took is not None, "the console sends Server-Timing with every answer"
            return took / 1000, response.content

        client.get("/api/health")
        process_caches.clear()
        views = browse(get, capture_ids)
        views["warm"] = first_requests_again(get, str(capture_ids[0]), process_caches.clear)
        return views


def measure_memory(capture_ids: list[int], data_dir: Path) -> dict[str, Any]:
    """Resident memory of a real API process (`stallscope serve --no-worker`, as the console runs
    it) before and after the same browsing, requested over HTTP from this one: the bodies this
    process reads and parses are not counted against the API's memory."""
    from signed_in import admin_headers

    url = os.environ["DATABASE_URL"]
    headers = admin_headers(url) | {"Host": "localhost"}
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    data_dir.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, DATABASE_URL=url, STALLSCOPE_DATA_DIR=str(data_dir))
    server = subprocess.Popen(
        [sys.executable, "-m", "stallscope", "serve", "--no-worker", "--port", str(port)],
        env=env,
        cwd=BENCH.parent / "backend",
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )

    def rss_mib() -> float:
        for line in Path(f"/proc/{server.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        return float("nan")

    def get(path: str, **params: str) -> tuple[float, bytes]:
        query = urllib.parse.urlencode(params)
        request = urllib.request.Request(f"http://127.0.0.1:{port}{path}?{query}", headers=headers)
        start = time.perf_counter()
        with urllib.request.urlopen(request, timeout=120) as response:
            body: bytes = response.read()
        return time.perf_counter() - start, body

    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                get("/api/health")
                break
            except urllib.error.HTTPError:  # answering: 503 names the worker this run does not start
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise RuntimeError("stallscope serve did not start") from None
                time.sleep(0.2)
        before = rss_mib()
        figures = browse(get, capture_ids, rss_mib)
    finally:
        server.terminate()
        server.wait(timeout=30)
    return {
        "rss_before_mib": before,
        "rss_one_mib": figures["rss_one_mib"],
        "rss_all_mib": figures["rss_all_mib"],
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("file", nargs="?", type=Path, default=DEFAULT_CAPTURE, help="perf script capture")
    parser.add_argument("--browsed", type=int, default=10, help="captures opened for the memory figure")
    parser.add_argument("--database-url", help="a PostgreSQL server to use instead of a fresh embedded one")
    parser.add_argument("--parse", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--naive", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--views", help=argparse.SUPPRESS)
    parser.add_argument("--memory", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.parse:
        print(json.dumps(measure_parse(args.parse)))
        return
    if args.naive:
        print(json.dumps(measure_naive(args.naive)))
        return
    if args.views:
        print(json.dumps(measure_views([int(i) for i in args.views.split(",")])))
        return
    if args.memory:  # against DATABASE_URL, as `--views`
        with tempfile.TemporaryDirectory() as data_dir:
            print(json.dumps(measure_memory([int(i) for i in args.memory.split(",")], Path(data_dir))))
        return
    run(args.file, args.browsed, args.database_url)


def run(path: Path, browsed: int, database_url: str | None) -> None:
    from ingest_and_query import record_capture

    from stallscope.config import get_settings
    from stallscope.embedded import start_embedded_postgres
    from stallscope.migrate import upgrade_to_head

    tmp = Path(tempfile.mkdtemp(prefix="stallscope-bench-"))
    tmp.chmod(0o755)
    try:
        url = database_url or start_embedded_postgres(tmp / "pgdata")
        upgrade_to_head(url)
        os.environ.update(DATABASE_URL=url, STALLSCOPE_DATA_DIR=str(tmp))
        get_settings.cache_clear()
        print(f"capture: {path} ({path.stat().st_size / 1e6:.1f} MB on disk)", flush=True)
        naive, inferno = measure_baselines(path, tmp)
        capture_ids: list[int] = []
        parse_seconds: list[float] = []
        for _ in range(max(browsed, 1)):
            capture_id = record_capture(url, path, tmp)
            parse_seconds.append(_child("--parse", str(capture_id))["seconds"])
            capture_ids.append(capture_id)
            print(f"  capture {capture_id} ready in {parse_seconds[-1]:.1f} s", flush=True)
        views = _child("--views", ",".join(map(str, capture_ids)))
        views |= measure_memory(capture_ids, tmp / "serve")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    report(path, naive, inferno, parse_seconds, views, browsed)


def report(
    path: Path,
    naive: dict[str, float],
    inferno: dict[str, float] | None,
    parse_seconds: list[float],
    views: dict[str, Any],
    browsed: int,
) -> None:
    def ms(seconds: float) -> str:
        return f"{seconds * 1000:,.0f} ms"

    nodes = views["nodes"]
    print()
    print(f"{path.name}: {nodes['samples']:,} samples")
    print(f"whole-capture flame graph: {nodes['sent']:,} nodes sent, {nodes['folded']:,} folded")
    print(
        f"  naive Python collapse (baseline)      {naive['seconds']:6.2f} s  ({naive['mb_per_s']:.0f} MB/s)"
    )
    if inferno is None:
        print("  inferno-collapse-perf                 skipped: not installed (cargo install inferno)")
    else:
        print(
            f"  inferno-collapse-perf --nthreads 1    {inferno['seconds']:6.2f} s  "
            f"({inferno['mb_per_s']:.0f} MB/s)"
        )
    print(
        f"  upload -> ready (parse, COPY, rollups) {median(parse_seconds):6.2f} s  "
        f"(median of {len(parse_seconds)}), "
        f"{naive['seconds'] / median(parse_seconds):.2f}x the naive collapse"
        + ("" if inferno is None else f", {inferno['seconds'] / median(parse_seconds):.2f}x inferno")
    )
    rows = [
        ("flame graph, whole capture, first request", views["whole_first"], 0.300),
        ("flame graph, same request again", views["whole_again"], 0.100),
        ("flame graph, new 10 s range, first request (worst)", max(views["ranges"]), 0.300),
        ("flame graph, new 10 s range, first request (median)", median(views["ranges"]), 0.300),
        ("zoom into the heaviest process", views["zoom"], 0.300),
        ("diff, first half against second, first request", views["diff_first"], 0.300),
    ]
    print()
    print(f"  {'':52} {'server time':>11} {'target':>8} {'vs naive collapse':>18} {'vs inferno':>11}")
    for label, seconds, target in rows:
        versus_inferno = "" if inferno is None else f"{inferno['seconds'] / seconds:10.0f}x"
        versus_naive = f"{naive['seconds'] / seconds:17.0f}x"
        print(f"  {label:52} {ms(seconds):>11} {ms(target):>8} {versus_naive} {versus_inferno}")
    warm = views["warm"]
    for label, runs in (("flame graph, whole capture", warm["whole"]), ("diff of the halves", warm["diff"])):
        print(
            f"  {label}, first request again in the same process, caches cleared: "
            f"median {ms(median(runs))} ({ms(min(runs))}-{ms(max(runs))}, {len(runs)} runs)"
        )
    print()
    print(
        f"  API process memory: {views['rss_before_mib']:.0f} MiB before, {views['rss_one_mib']:.0f} MiB "
        f"after these views, {views['rss_all_mib']:.0f} MiB with {browsed} such captures browsed "
        "(target < 300 MiB)"
    )


if __name__ == "__main__":
    main()
