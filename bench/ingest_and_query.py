"""End-to-end ingest into PostgreSQL and flame-graph query latency, beside a naive Python collapse.

    python bench/ingest_and_query.py                   # ~1M samples built from the shared corpus
    python bench/ingest_and_query.py --samples 3000000 # a bigger capture
    python bench/ingest_and_query.py --file bench/captures/deep-compile/cpu.perf.txt.gz

The default input is `cpu20s.perf.txt.gz` repeated with shifted times until it holds the requested
number of samples (real stacks, up to 127 frames deep); `--file` takes a real capture instead (plain,
gzip or zstd; decompressed first, so every figure is over the same plain text). A fresh embedded
PostgreSQL is started in a temporary folder and migrated; the parse job the Celery worker runs is
timed in a child process (so its peak RSS is its own), then the flame-graph endpoint is timed
through the real FastAPI app.

Two figures of the parse job: its load stage (parse and store, until the samples are committed; the
job logs it) and upload to ready (the upload into the blob store, then the whole job: rollups,
thread states, the call-site tree and findings included). Baselines, over the same file in the same
run: the naive collapse (`baselines.naive_collapse`; `--show-baselines` prints its code) and
`inferno-collapse-perf --nthreads 1`.
"""

from __future__ import annotations

import argparse
import inspect
import json
import logging
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from statistics import median
from typing import Any

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH.parent / "backend"))
sys.path.insert(0, str(BENCH))

from baselines import (  # noqa: E402
    INFERNO_MISSING,
    Run,
    decompressed,
    find_inferno,
    inferno_command,
    run_timed,
)
from parser_throughput import DEFAULT_CORPUS, naive_collapse  # noqa: E402
from parser_throughput import build_input as build_repeated  # noqa: E402

from stallscope.blobs.store import StoredBlob  # noqa: E402
from stallscope.kit.compression import open_capture  # noqa: E402

SAMPLES_PER_COPY = 39_856  # cpu20s.perf.txt.gz
QUERY_REPEATS = 5


def build_input(corpus: Path, samples: int, folder: Path) -> Path:
    return build_repeated(corpus, 0, folder, copies=-(-samples // SAMPLES_PER_COPY))


def child(*args: str, script: str = __file__) -> dict[str, Any]:
    """Run a bench script's measurement in a fresh process and read the JSON it prints last."""
    result = subprocess.run(
        [sys.executable, script, *args], check=True, capture_output=True, text=True, env=dict(os.environ)
    )
    figures: dict[str, Any] = json.loads(result.stdout.strip().splitlines()[-1])
    return figures


def repeated_capture(samples: int, corpus: Path, folder: Path) -> Path:
    """`cpu20s` repeated with shifted times to `samples` samples, written in `folder` by a child
    process: Linux children start with their parent's peak RSS, so the measuring process stays small
    for its children's figures to be their own."""
    built = child("--samples", str(samples), "--corpus", str(corpus), "--build-in", str(folder))
    return Path(built["path"])


def measure_naive(path: Path) -> dict[str, float]:
    with open_capture(path) as stream:
        start = time.perf_counter()
        samples = sum(naive_collapse(stream).values())
        seconds = time.perf_counter() - start
    return {"seconds": seconds, "samples": samples, "peak_rss_mib": _peak_mib()}


def measure_inferno(path: Path) -> Run | None:
    """`inferno-collapse-perf --nthreads 1` of the same (plain) file, or None when not installed."""
    tool = find_inferno()
    if tool is None:
        print(INFERNO_MISSING)
        return None
    return run_timed(inferno_command(tool, path))


class LoadStage(logging.Handler):
    """Takes the load stage's duration from the parse job's own log line (`load_seconds`)."""

    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.seconds: float | None = None

    def emit(self, record: logging.LogRecord) -> None:
        seconds = getattr(record, "load_seconds", None)
        if seconds is not None:
            self.seconds = float(seconds)


def measure_ingest(database_url: str, capture_id: int) -> dict[str, float | None]:
    from stallscope.captures.parsing import parse_capture

    stage = LoadStage()
    job_log = logging.getLogger("stallscope.captures.parsing")
    job_log.addHandler(stage)
    job_log.setLevel(logging.INFO)
    start = time.perf_counter()
    parse_capture(database_url, capture_id)
    seconds = time.perf_counter() - start
    job_log.removeHandler(stage)
    return {"seconds": seconds, "load_seconds": stage.seconds, "peak_rss_mib": _peak_mib()}


def _peak_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def store_upload(data_dir: Path, path: Path) -> StoredBlob:
    """Stream the file into the data directory's blob store (where the parse job reads it from when
    `STALLSCOPE_DATA_DIR` is `data_dir`), as an upload would: metered, hashed, committed."""
    from stallscope.blobs.local import LocalBlobStore

    upload = LocalBlobStore(data_dir / "blobs").start_upload(1 << 40)
    with open(path, "rb") as source:
        while chunk := source.read(1 << 20):
            upload.write(chunk)
    return upload.commit()


def record_capture(database_url: str, path: Path, data_dir: Path) -> int:
    """Store the file through the blob store, as an upload would, and create its capture row."""
    from stallscope.captures import service
    from stallscope.captures.schemas import UploadInfo
    from stallscope.db import get_session_factory
    from stallscope.incidents.schemas import IncidentCreate
    from stallscope.incidents.service import create_incident

    blob = store_upload(data_dir, path)
    with get_session_factory(database_url)() as session:
        incident = create_incident(
            session,
            IncidentCreate(title="bench", started_at="2026-01-01T00:00:00Z"),
        )
        upload = UploadInfo(filename=path.name, host="bench")
        capture = service.record_upload(session, incident.id, upload, blob)
        session.commit()
        return capture.id


@dataclass(frozen=True)
class Prepared:
    url: str
    path: Path
    capture_id: int
    store_seconds: float
    """Time to stream the file into the blob store, as an upload would."""


def prepare_capture(
    tmp: Path, build_args: list[str], script: str = __file__, path: Path | None = None
) -> Prepared:
    """Build the input in a child (or take `path`), start and migrate a fresh embedded PostgreSQL,
    store the capture.

    The input is built in a child because Linux children start with their parent's peak RSS: this
    process must stay small for the measuring children's figures to be their own.
    """
    from stallscope.config import get_settings
    from stallscope.embedded import start_embedded_postgres
    from stallscope.migrate import upgrade_to_head

    if path is None:
        path = Path(child(*build_args, "--build-in", str(tmp), script=script)["path"])
    url = start_embedded_postgres(tmp / "pgdata")
    upgrade_to_head(url)
    os.environ.update(DATABASE_URL=url, STALLSCOPE_DATA_DIR=str(tmp))
    get_settings.cache_clear()
    start = time.perf_counter()
    capture_id = record_capture(url, path, tmp)
    return Prepared(url, path, capture_id, time.perf_counter() - start)


def time_queries(capture_id: int) -> dict[str, list[float]]:
    import process_caches
    from fastapi.testclient import TestClient
    from signed_in import admin_headers

    from stallscope.main import create_app

    timings: dict[str, list[float]] = {"cold": [], "warm": [], "zoom": [], "folded": []}
    with TestClient(
        create_app(), base_url="http://localhost", headers=admin_headers(os.environ["DATABASE_URL"])
    ) as client:
        params = {"captures": str(capture_id)}
        for _ in range(QUERY_REPEATS):
            process_caches.clear()
            for kind in ("cold", "warm"):
                start = time.perf_counter()
                response = client.get("/api/flame", params=params)
                timings[kind].append(time.perf_counter() - start)
                response.raise_for_status()
            heaviest = max(response.json()["root"]["children"], key=lambda c: c["value"])
            start = time.perf_counter()
            client.get("/api/flame", params={**params, "focus": json.dumps([heaviest["name"]])})
            timings["zoom"].append(time.perf_counter() - start)
            start = time.perf_counter()
            client.get("/api/flame/folded", params=params).raise_for_status()
            timings["folded"].append(time.perf_counter() - start)
        body = client.get("/api/flame", params=params).json()
    print(
        f"flame graph: {body['total_samples']:,} samples, {body['node_count']:,} nodes sent, "
        f"{body['pruned_nodes']:,} folded into (other)"
    )
    return timings


def load() -> str:
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


def print_ingest_table(
    size_mb: float,
    samples: float,
    naive: dict[str, float],
    inferno: Run | None,
    ingest: dict[str, Any],
    store_s: float,
) -> None:
    titles = (("seconds", 8), ("MB/s", 7), ("samples/s", 10), ("peak RSS", 9), ("vs naive", 9))
    print(f"{'':42} " + " ".join(f"{title:>{width}}" for title, width in titles) + f" {'vs inferno':>11}")
    rows: list[tuple[str, float, float | None]] = [
        ("naive collapse (baseline)", naive["seconds"], naive["peak_rss_mib"])
    ]
    if inferno is not None:
        rows.append(("inferno-collapse-perf --nthreads 1", inferno.seconds, inferno.peak_rss_mib))
    if ingest["load_seconds"] is not None:
        rows.append(("parse job: load (parse + store, committed)", ingest["load_seconds"], None))
    rows.append(("parse job: upload -> ready", store_s + ingest["seconds"], ingest["peak_rss_mib"]))
    for label, seconds, rss in rows:
        versus_inferno = f"{inferno.seconds / seconds:10.2f}x" if inferno is not None else f"{'-':>11}"
        memory = f"{rss:5.0f} MiB" if rss is not None else f"{'':>9}"
        print(
            f"{label:42} {seconds:8.2f} {size_mb / seconds:7.1f} {samples / seconds:10,.0f} "
            f"{memory} {naive['seconds'] / seconds:8.2f}x {versus_inferno}"
        )
    if ingest["load_seconds"] is None:
        print("parse job: no load-stage log line (the capture failed?), no load row")
    print(f"  of which upload into the blob store {store_s:.2f} s, the whole job {ingest['seconds']:.2f} s")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--samples", type=int, default=1_000_000, help="samples in the capture (default 1M)")
    parser.add_argument("--file", type=Path, help="a real capture to ingest instead (plain, gzip or zstd)")
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS, help="the shared corpus folder")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder")
    parser.add_argument("--show-baselines", action="store_true", help="print the naive collapse's code")
    parser.add_argument("--naive", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--ingest", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--build-in", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.build_in:
        print(json.dumps({"path": str(build_input(args.corpus, args.samples, args.build_in))}))
        return
    if args.naive:
        print(json.dumps(measure_naive(args.naive)))
        return
    if args.ingest:
        print(json.dumps(measure_ingest(os.environ["DATABASE_URL"], args.ingest)))
        return
    if args.file is not None and not args.file.is_file():
        parser.error(f"{args.file} not found")
    if args.show_baselines:
        print(inspect.getsource(naive_collapse))

    tmp = Path(tempfile.mkdtemp(prefix="stallscope-bench-"))
    tmp.chmod(0o755)
    print(f"{os.cpu_count()} CPUs; load average before: {load()}", flush=True)
    try:
        if args.file is None:
            print(f"building an input of at least {args.samples:,} samples ...", flush=True)
            build_args = ["--samples", str(args.samples), "--corpus", str(args.corpus)]
            prepared = prepare_capture(tmp, build_args)
        else:
            print(f"decompressing {args.file} ...", flush=True)
            prepared = prepare_capture(tmp, [], path=decompressed(args.file, tmp))
        path, capture_id, store_s = prepared.path, prepared.capture_id, prepared.store_seconds
        size_mb = path.stat().st_size / 1e6
        print(f"input: {args.file or path.name}, {size_mb:,.0f} MB of perf script", flush=True)

        naive = child("--naive", str(path))
        inferno = measure_inferno(path)
        ingest = child("--ingest", str(capture_id))
        timings = time_queries(capture_id)
    finally:
        if not args.keep:
            shutil.rmtree(tmp, ignore_errors=True)

    samples = naive["samples"]
    print()
    print_ingest_table(size_mb, samples, naive, inferno, ingest, store_s)
    print()
    print(f"flame-graph query over {samples:,.0f} samples (median of {QUERY_REPEATS} runs):")
    for kind, values in timings.items():
        value = median(values)
        print(
            f"  {kind:8} {value * 1000:8.0f} ms   {naive['seconds'] / value:8.1f}x faster than re-collapsing"
        )
    print(f"\nload average after: {load()} (one run each, the naive collapse and the job in a process each)")


if __name__ == "__main__":
    main()
