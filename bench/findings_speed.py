"""How quickly findings follow the data: on a collection-run folder (the CLI) and after a parse (the server).

    python bench/findings_speed.py                      # CLI on a ~25 MB folder; server after 1M samples
    python bench/findings_speed.py --samples 10000000   # the 10M-sample benchmark incident

CLI: a folder shaped like a collector run is built from the shared corpus's real captures (CPU
stacks, scheduler events with stacks, a perf trace of futex/fsync/mmap), about 25 MB of text, and
`stallscope findings FOLDER` runs on it in one process (one core). Baselines in the same run, over
the same files: the naive Python collapse from `parser_throughput.py` and, when installed,
`inferno-collapse-perf` (the Rust collapser), which only fold stacks and detect nothing.

Server: the `ingest_and_query.py` capture (cpu20s repeated to N samples) is parsed as the worker
does; then the step a parse ends with (store the capture's digest, recompute the incident's
findings) is timed on its own, which is how long findings trail the parse.
"""

from __future__ import annotations

import argparse
import gzip
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH.parent / "backend"))
sys.path.insert(0, str(BENCH))

from ingest_and_query import child, prepare_capture  # noqa: E402
from parser_throughput import DEFAULT_CORPUS, naive_collapse  # noqa: E402

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
    tool = shutil.which("inferno-collapse-perf")
    if tool is None:
        return None
    start = time.perf_counter()
    for path in sorted(folder.iterdir()):
        if ".perf." in path.name:
            with gzip.open(path, "rb") as f:
                subprocess.run([tool], input=f.read(), check=True, capture_output=True)
    return time.perf_counter() - start


def time_after_parse(url: str, capture_id: int) -> dict[str, float]:
    from stallscope.db import get_session_factory
    from stallscope.findings import repository, service

    factory = get_session_factory(url)
    seconds = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        with factory() as session:
            service.store_digest(session, capture_id)
            meta = repository.capture_meta(session, capture_id)
            assert meta is not None
            service.compute(session, meta[0])
            session.commit()
        seconds.append(time.perf_counter() - start)
    with factory() as session:
        meta = repository.capture_meta(session, capture_id)
        assert meta is not None
        stored = repository.load_result(session, meta[0])
    assert stored is not None
    return {"seconds": min(seconds), "engine_ms": float(stored["duration_ms"])}


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--samples", type=int, default=1_000_000, help="samples of the server's capture")
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS, help="the shared corpus folder")
    args = parser.parse_args()

    tmp = Path(tempfile.mkdtemp(prefix="stallscope-bench-"))
    tmp.chmod(0o755)
    try:
        folder = tmp / "run"
        size = build_folder(args.corpus, folder)
        cli = time_cli(folder)
        naive = time_naive(folder)
        inferno = time_inferno(folder)
        print(f"CLI: a collection-run folder, {cli['files']} files, {size / 1e6:.1f} MB of text")
        print(f"{'':44} {'seconds':>8} {'MB/s':>7}")
        rows = [("stallscope findings (detect + evidence)", cli["seconds"]), ("naive Python collapse", naive)]
        if inferno is not None:
            rows.append(("inferno-collapse-perf (collapse only)", inferno))
        for label, seconds in rows:
            print(f"{label:44} {seconds:8.2f} {size / 1e6 / seconds:7.1f}")
        if inferno is None:
            print("inferno-collapse-perf: not installed (cargo install inferno), no inferno row")
        print(f"findings: {', '.join(cli['findings']) or 'none'}")

        print(f"\nServer: findings after the parse of a {args.samples:,}-sample capture")
        (tmp / "server").mkdir()
        prepared = prepare_capture(
            tmp / "server",
            ["--samples", str(args.samples), "--corpus", str(args.corpus)],
            script=str(BENCH / "ingest_and_query.py"),
        )
        ingest = child("--ingest", str(prepared.capture_id), script=str(BENCH / "ingest_and_query.py"))
        after = time_after_parse(prepared.url, prepared.capture_id)
        print(f"{'parse (the worker job, findings included)':44} {ingest['seconds']:8.2f}")
        engine = f"(engine {after['engine_ms']:.0f} ms)"
        print(f"{'findings step after the parse':44} {after['seconds']:8.2f}   {engine}")
        print(
            json.dumps(
                {
                    "cli_s": cli["seconds"],
                    "naive_s": naive,
                    "inferno_s": inferno,
                    "after_parse_s": after["seconds"],
                    "parse_s": ingest["seconds"],
                }
            )
        )
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
