"""Export of a 1M-sample incident as an escalation bundle, beside what the least export would cost.

    python bench/bundle_export.py                  # build the incident from the shared corpus, export it
    python bench/bundle_export.py --keep           # keep the database (prints how to measure it again)
    python bench/bundle_export.py --reuse DIR      # measure a folder kept by --keep again
    python bench/bundle_export.py --samples 3000000 --redact-mb 0   # bigger; redactor over the whole file
    python bench/bundle_export.py --profile        # also cProfile the step that writes the zip

Targets (issue 13): the export of a 1M-sample incident takes under 30 s, and the bundle stays under
2x the size of its compressed captures. They are printed as PASS/FAIL for information, never asserted.

The incident has one host, `db7.prod.example.com`, so the redactor has a name to replace:
- a CPU capture: the corpus's `cpu20s.perf.txt.gz` repeated with shifted times until it holds
  `--samples` samples (1,036,256 at the default; real stacks up to 127 frames), gzip -6 as a
  `perf script | gzip` upload would be;
- a scheduler capture: the corpus's `offcpu5s.perf.txt.gz` as recorded (off/on-CPU intervals);
- `sar -A` output and two text snapshots recorded for the tests (`tests/ingest/data/sysstat/`,
  `tests/ingest/data/snapshot_text/pair/`): metrics, snapshots and a config diff;
- a note on the timeline, and the findings the parse job computes.
A fresh embedded PostgreSQL holds it; the worker's parse job parses each capture in a child process.

Each export is `POST /api/incidents/{id}/bundle` through the real FastAPI app, signed in, in a fresh
child process (cold caches; its peak RSS is its own), streamed to a file: once as the issue's target
says (default redaction, standard views, findings, annotations, postmortem, no raw captures) and once
with `raw: true`. Wall time is the figure the target is about; the child's own CPU time is printed
beside it (PostgreSQL's is not in it), since other work on the machine stretches wall time. The child
also times, by wrapping the exporter's functions, its three steps (prepare; read the views through
the API, per API path; write the zip), each member as it is written, the records files, and the
time in `Redactor.json` (the views' API answers embedded in `index.html`, snapshots, speedscope).
`--profile` adds a cProfile of the write step (printed, and saved beside the bundle as `.pstats`).

Baselines, measured in the same run:
- the compressed captures stored into a zip as they are (`ZIP_STORED`): the least any export could do;
- the stored rows (samples, events, metric points, frames, stacks) copied out of PostgreSQL with
  `COPY ... TO STDOUT` and deflated at level 6 (`gzip -6`): the records alone, with no JSON or redaction;
- with the raw export, the largest raw capture decompressed and deflated again at level 6, as the zip
  stores a raw capture, but not redacted: the floor of that member;
- the redactor (default policy, seeded with what this export knows) over the first `--redact-mb` MB of
  the largest raw capture, decompressed, beside a naive `re.sub` with one alternation of the same
  known names, line by line. MB/s is over CPU time; MB are 10^6 bytes of decompressed text;
- the two yardsticks every benchmark prints (`baselines.py`): the naive collapse and
  `inferno-collapse-perf --nthreads 1` of the incident's CPU capture, and each export's time
  against them (how many times over each could have collapsed that capture).
"""

from __future__ import annotations

import argparse
import cProfile
import gzip
import io
import json
import os
import pstats
import re
import resource
import shutil
import sys
import tempfile
import time
import zipfile
import zlib
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
sys.path.insert(0, str(REPO / "backend"))
sys.path.insert(0, str(BENCH))

from baselines import measure_baselines, print_baselines, versus  # noqa: E402
from ingest_and_query import child  # noqa: E402
from investigation_views import reuse_incident, settle  # noqa: E402
from parser_throughput import DEFAULT_CORPUS, shift_times, span_seconds  # noqa: E402

HOST = "db7.prod.example.com"
T0 = datetime(2026, 11, 22, 0, 31, 50, tzinfo=UTC)
CPU_SOURCE = Path("captures") / "cpu20s.perf.txt.gz"
SCHED_SOURCE = Path("captures") / "offcpu5s.perf.txt.gz"
SAMPLES_PER_COPY = 39_856  # cpu20s.perf.txt.gz
TEST_DATA = REPO / "backend" / "tests" / "ingest" / "data"
SMALL_FILES = (
    TEST_DATA / "sysstat" / "sar_A.txt",
    TEST_DATA / "snapshot_text" / "pair" / "healthy.txt",
    TEST_DATA / "snapshot_text" / "pair" / "impacted.txt",
)
TARGET_SECONDS = 30.0
TARGET_RATIO = 2.0
BIGGEST_MEMBERS = 8
STEPS = (
    "prepare: captures, views, redactor",
    "read: views and documents through the API",
    "write: redact and zip every member",
    "  of which the records files (to a spool)",
    "  of which Redactor.json (page data, snapshots…)",
)
CHUNK = 1 << 20


# -- the incident ---------------------------------------------------------------------------------


def build_cpu_input(corpus: Path, samples: int, folder: Path) -> Path:
    """cpu20s repeated with shifted times, gzip -6 in one stream, as `perf script | gzip` makes it."""
    data = gzip.decompress((corpus / CPU_SOURCE).read_bytes())
    span = span_seconds(data)
    copies = -(-samples // SAMPLES_PER_COPY)
    target = folder / f"cpu20s-x{copies}.perf.txt.gz"
    with gzip.open(target, "wb", compresslevel=6) as out:
        for copy in range(copies):
            out.write(shift_times(data, copy * span))
    return target


def build_incident(tmp: Path, corpus: Path, samples: int) -> dict[str, Any]:
    from stallscope.config import get_settings
    from stallscope.embedded import start_embedded_postgres
    from stallscope.migrate import upgrade_to_head

    started = time.perf_counter()
    # Built in a child: this process stays small, and the measuring children are forked from it.
    build = ["--samples", str(samples), "--corpus", str(corpus), "--build-in", str(tmp)]
    cpu = Path(child(*build, script=__file__)["path"])
    print(f"  built {cpu.name} ({cpu.stat().st_size / 1e6:,.1f} MB) in {time.perf_counter() - started:.0f} s")
    url = start_embedded_postgres(tmp / "pgdata")
    upgrade_to_head(url)
    os.environ.update(DATABASE_URL=url, STALLSCOPE_DATA_DIR=str(tmp))
    get_settings.cache_clear()

    files = [
        (cpu, T0),
        (corpus / SCHED_SOURCE, T0 + timedelta(seconds=10)),
        *((p, None) for p in SMALL_FILES),
    ]
    incident_id = new_incident(url)
    capture_ids = [store_capture(url, tmp, incident_id, path, start) for path, start in files]
    started = time.perf_counter()
    for capture_id in capture_ids:
        child("--parse", str(capture_id), script=__file__)
        print(f"  parsed capture {capture_id} ({time.perf_counter() - started:.0f} s so far)", flush=True)
    add_note(url, incident_id)
    return {
        "url": url,
        "embedded": True,
        "incident": incident_id,
        "captures": capture_ids,
        "ingest_s": time.perf_counter() - started,
    }


def new_incident(url: str) -> int:
    from stallscope.db import get_session_factory
    from stallscope.incidents.schemas import IncidentCreate
    from stallscope.incidents.service import create_incident

    with get_session_factory(url)() as session:
        incident = create_incident(session, IncidentCreate(title=f"fsync stalls on {HOST}", started_at=T0))
        session.commit()
        return int(incident.id)


def store_capture(url: str, tmp: Path, incident_id: int, path: Path, start: datetime | None) -> int:
    """Store the file through the blob store as an upload would, on HOST, its first record at `start`."""
    from ingest_and_query import store_upload

    from stallscope.captures import service
    from stallscope.captures.schemas import UploadInfo
    from stallscope.db import get_session_factory
    from stallscope.ingest.clock import START_GIVEN_KEY

    blob = store_upload(tmp, path)
    clock = {START_GIVEN_KEY: int(start.timestamp()) * 10**9} if start else {}
    with get_session_factory(url)() as session:
        upload = UploadInfo(filename=path.name, host=HOST, clock=clock)
        capture = service.record_upload(session, incident_id, upload, blob)
        session.commit()
        return int(capture.id)


def add_note(url: str, incident_id: int) -> None:
    """A note on the timeline, through the API as a person would pin it."""
    with api_client() as client:
        client.post(
            f"/api/incidents/{incident_id}/annotations",
            json={
                "ts": (T0 + timedelta(seconds=12)).isoformat(),
                "text": f"fsync stall on {HOST}",
                "host": HOST,
            },
        ).raise_for_status()


def api_client() -> Any:
    from fastapi.testclient import TestClient
    from signed_in import admin_headers

    from stallscope.main import create_app

    headers = {**admin_headers(os.environ["DATABASE_URL"]), "X-Requested-With": "bench"}
    return TestClient(create_app(), base_url="http://localhost", headers=headers)


def parse(capture_id: int) -> dict[str, Any]:
    from stallscope.captures.parsing import parse_capture

    parse_capture(os.environ["DATABASE_URL"], capture_id)
    return {"ok": True}


# -- the export, in a child -------------------------------------------------------------------------


class StepClock:
    """Times the exporter's steps and members by wrapping its functions in this child process only."""

    def __init__(self, profile: bool) -> None:
        self.steps: dict[str, float] = dict.fromkeys(STEPS, 0.0)
        self.members: dict[str, float] = {}
        self.requests: dict[str, list[float]] = {}
        """Per API path the reader asked: [seconds, requests]."""
        self.profiler = cProfile.Profile() if profile else None

    def install(self) -> None:
        from stallscope.bundle import archive, service
        from stallscope.bundle.console_reader import ConsoleReader
        from stallscope.export import records
        from stallscope.redaction import Redactor

        clock = self

        def timed_sync(name: str, fn: Callable[..., Any], profiled: bool = False) -> Callable[..., Any]:
            def run(*args: Any, **kwargs: Any) -> Any:
                start = time.perf_counter()
                if profiled and clock.profiler is not None:
                    clock.profiler.enable()  # this thread only: the one that writes the zip
                try:
                    return fn(*args, **kwargs)
                finally:
                    if profiled and clock.profiler is not None:
                        clock.profiler.disable()
                    clock.steps[name] = clock.steps.get(name, 0.0) + time.perf_counter() - start

            return run

        original_read = service.read

        async def timed_read(*args: Any, **kwargs: Any) -> Any:
            start = time.perf_counter()
            try:
                return await original_read(*args, **kwargs)
            finally:
                clock.steps[STEPS[1]] = time.perf_counter() - start

        add_chunks = archive.BundleArchive.add_chunks

        def timed_add(self: Any, path: str, chunks: Any) -> Any:
            start = time.perf_counter()
            try:
                return add_chunks(self, path, chunks)
            finally:
                clock.members[path] = time.perf_counter() - start

        def timed_request(fn: Callable[..., Any]) -> Callable[..., Any]:
            async def run(self: Any, url: str) -> Any:
                start = time.perf_counter()
                try:
                    return await fn(self, url)
                finally:
                    spent = clock.requests.setdefault(urlsplit(url).path, [0.0, 0])
                    spent[0] += time.perf_counter() - start
                    spent[1] += 1

            return run

        for method in ("json", "text", "bytes"):
            setattr(ConsoleReader, method, timed_request(getattr(ConsoleReader, method)))
        timed: list[tuple[object, str, Callable[..., Any]]] = [
            (Redactor, "json", timed_sync(STEPS[4], Redactor.json)),
            (service, "prepare", timed_sync(STEPS[0], service.prepare)),
            (service, "read", timed_read),
            (service, "write", timed_sync(STEPS[2], service.write, profiled=True)),
            (service, "write_capture_records", timed_sync(STEPS[3], records.write_capture_records)),
            (archive.BundleArchive, "add_chunks", timed_add),
        ]
        for owner, name, replacement in timed:
            setattr(owner, name, replacement)


def export(incident_id: int, raw: bool, out: Path, profile: bool) -> dict[str, Any]:
    clock = StepClock(profile)
    clock.install()
    with api_client() as client:
        start, start_cpu = time.perf_counter(), _cpu_seconds()
        with client.stream("POST", f"/api/incidents/{incident_id}/bundle", json={"raw": raw}) as response:
            if response.status_code != 200:
                raise SystemExit(f"the export answered {response.status_code}: {response.read()[:500]!r}")
            with out.open("wb") as target:
                for chunk in response.iter_bytes(CHUNK):
                    target.write(chunk)
        seconds, cpu = time.perf_counter() - start, _cpu_seconds() - start_cpu
    figures: dict[str, Any] = {
        "seconds": seconds,
        "cpu_s": cpu,
        "requests": clock.requests,
        "bytes": out.stat().st_size,
        "peak_rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "steps": clock.steps,
        "members": clock.members,
    }
    if clock.profiler is not None:
        clock.profiler.dump_stats(out.with_suffix(".pstats"))
        text = io.StringIO()
        pstats.Stats(clock.profiler, stream=text).sort_stats("cumulative").print_stats(30)
        figures["profile"] = text.getvalue()
    return figures


def _cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


# -- baselines ---------------------------------------------------------------------------------------


def captures_of(state: dict[str, Any]) -> list[dict[str, Any]]:
    from sqlalchemy import text

    from stallscope.db import get_session_factory

    with get_session_factory(state["url"])() as session:
        rows = session.execute(
            text(
                "SELECT id, filename, size_bytes, size_uncompressed, blob_path, sample_count, status "
                "FROM captures WHERE incident_id = :incident ORDER BY id"
            ),
            {"incident": state["incident"]},
        ).mappings()
        return [dict(row) for row in rows]


def zip_stored(captures: list[dict[str, Any]], out: Path) -> dict[str, float]:
    """The compressed captures into a zip as they are: the least any export could do."""
    start = time.perf_counter()
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_STORED) as bundle:
        for capture in captures:
            bundle.write(capture["blob_path"], f"raw/{capture['id']}-{capture['filename']}")
    return {"seconds": time.perf_counter() - start, "bytes": out.stat().st_size}


def gzip_records(url: str, capture_ids: list[int]) -> dict[str, float]:
    """The stored rows COPY'd out of PostgreSQL and deflated at level 6: the records alone."""
    from stallscope.db import raw_connection
    from stallscope.export import records_repository as sql

    start = time.perf_counter()
    compressor = zlib.compressobj(6, zlib.DEFLATED, 31)  # 31: a gzip stream, as `gzip -6` writes
    size = raw = 0
    with raw_connection(url) as conn:
        for capture_id in capture_ids:
            for query in (sql.FRAMES, sql.STACKS, sql.SAMPLES, sql.EVENTS, sql.SERIES, sql.POINTS):
                bound = query.replace("%(id)s", str(int(capture_id)))
                with conn.cursor().copy(f"COPY ({bound}) TO STDOUT") as copy:
                    for block in copy:
                        raw += len(block)
                        size += len(compressor.compress(block))
    size += len(compressor.flush())
    return {"seconds": time.perf_counter() - start, "bytes": size, "raw_bytes": raw}


def deflate_raw(path: Path) -> dict[str, float]:
    """A raw capture decompressed and deflated again at level 6, as `raw: true` stores it, but with no
    redaction: the floor of that member."""
    start = time.perf_counter()
    compressor = zlib.compressobj(6, zlib.DEFLATED, -15)  # -15: raw deflate, as inside a zip
    size = raw = 0
    for chunk in _raw_chunks(path, 0):
        raw += len(chunk)
        size += len(compressor.compress(chunk))
    size += len(compressor.flush())
    return {"seconds": time.perf_counter() - start, "bytes": size, "raw_bytes": raw}


def redactor_throughput(state: dict[str, Any], path: Path, limit_mb: int) -> dict[str, Any]:
    """The export's redactor over the largest raw capture (its first `limit_mb` MB), by CPU time."""
    from stallscope.bundle.redaction_choice import redactor_for
    from stallscope.bundle.repository import incident_captures
    from stallscope.bundle.schemas import RedactionChoice
    from stallscope.db import get_session_factory

    with get_session_factory(state["url"])() as session:
        redactor = redactor_for(session, RedactionChoice(), incident_captures(session, state["incident"]))
    start_cpu, start = time.process_time(), time.perf_counter()
    size = sum(len(block) for block in redactor.lines(_raw_chunks(path, limit_mb)))
    cpu, wall = time.process_time() - start_cpu, time.perf_counter() - start
    consumed = sum(len(c) for c in _raw_chunks(path, limit_mb))
    literals = redactor.state.literals
    return {
        "bytes": consumed,
        "out_bytes": size,
        "cpu_s": cpu,
        "wall_s": wall,
        "replacements": sum(redactor.state.counts.values()),
        "names": {k: v.pseudonym for k, v in (literals.exact | literals.folded).items()},
    }


def naive_redaction(path: Path, limit_mb: int, names: dict[str, str]) -> dict[str, Any]:
    """What a first script would do: one alternation of the known names, `re.sub` line by line."""
    lookup = {name.lower(): pseudonym for name, pseudonym in names.items()}
    pattern = re.compile("|".join(re.escape(n) for n in sorted(lookup, key=len, reverse=True)), re.IGNORECASE)

    def swap(match: re.Match[str]) -> str:
        return lookup[match[0].lower()]

    replaced = 0
    start_cpu, start = time.process_time(), time.perf_counter()
    consumed = 0
    for line in _raw_lines(path, limit_mb):
        consumed += len(line)
        text, count = pattern.subn(swap, line.decode("utf-8", "surrogateescape"))
        text.encode("utf-8", "surrogateescape")
        replaced += count
    return {
        "bytes": consumed,
        "cpu_s": time.process_time() - start_cpu,
        "wall_s": time.perf_counter() - start,
        "replacements": replaced,
        "names": len(lookup),
    }


def _raw_chunks(path: Path, limit_mb: int) -> Iterator[bytes]:
    """The capture decompressed, cut at a line end after `limit_mb` MB (0: all of it)."""
    from stallscope.kit.compression import open_capture

    limit = limit_mb * 1_000_000 or None
    with open_capture(path) as stream:
        consumed = 0
        while chunk := stream.read(CHUNK):
            if limit is not None and consumed + len(chunk) >= limit:
                cut = chunk.find(b"\n", max(0, limit - consumed)) + 1 or len(chunk)
                yield chunk[:cut]
                return
            consumed += len(chunk)
            yield chunk


def _raw_lines(path: Path, limit_mb: int) -> Iterator[bytes]:
    rest = b""
    for chunk in _raw_chunks(path, limit_mb):
        lines = (rest + chunk).split(b"\n")
        rest = lines.pop()
        for line in lines:
            yield line + b"\n"
    if rest:
        yield rest


# -- the report ----------------------------------------------------------------------------------------


def members_of(path: Path) -> list[tuple[str, int, int]]:
    with zipfile.ZipFile(path) as bundle:
        return sorted(
            ((i.filename, i.file_size, i.compress_size) for i in bundle.infolist()), key=lambda m: -m[2]
        )


def print_export(label: str, figures: dict[str, Any], bundle: Path, compressed: int) -> None:
    ratio = figures["bytes"] / compressed
    print(
        f"\n{label}: {figures['seconds']:.1f} s, {figures['bytes'] / 1e6:,.1f} MB "
        f"({ratio:.2f}x the compressed captures), {figures['cpu_s']:.1f} s of CPU in the exporting "
        f"process (PostgreSQL's not counted), peak RSS {figures['peak_rss_mib']:.0f} MiB"
    )
    steps = figures["steps"]
    for step, seconds in steps.items():
        print(f"  {step:46} {seconds:7.2f} s")
    outside = steps[STEPS[2]] - steps[STEPS[3]] - sum(figures["members"].values())
    print(f"  {'  of which the members, as each is zipped':46} {sum(figures['members'].values()):7.2f} s")
    print(f"  {'  of which the rest (page data, postmortem…)':46} {outside:7.2f} s")
    slow = sorted(figures["requests"].items(), key=lambda r: -r[1][0])[:5]
    print("  slowest reads: " + ", ".join(f"{path} {t:.2f} s ({n}x)" for path, (t, n) in slow))
    members = members_of(bundle)
    print(f"  {len(members)} members; the biggest (bytes in the zip / uncompressed, seconds to write):")
    for name, size, stored in members[:BIGGEST_MEMBERS]:
        seconds = figures["members"].get(name, 0.0)
        print(f"    {name:44} {stored / 1e6:9.2f} MB / {size / 1e6:9.2f} MB  {seconds:6.2f} s")
    slowest = sorted(figures["members"].items(), key=lambda m: -m[1])[:3]
    print("  slowest members: " + ", ".join(f"{name} {seconds:.2f} s" for name, seconds in slowest))


def verdict(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


def load_average() -> str:
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--samples", type=int, default=1_000_000, help="CPU samples in the incident (default 1M)"
    )
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS, help="the shared corpus folder")
    parser.add_argument(
        "--redact-mb",
        type=int,
        default=300,
        help="MB of the largest raw capture the redactor and its naive baseline read (0: all; default 300)",
    )
    parser.add_argument("--no-raw", action="store_true", help="skip the export with raw captures")
    parser.add_argument("--profile", action="store_true", help="cProfile the write step of each export")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder and database")
    parser.add_argument("--reuse", type=Path, metavar="DIR", help="measure a folder kept by --keep again")
    parser.add_argument("--build-in", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--parse", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--export", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--raw", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--out", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.build_in:
        print(json.dumps({"path": str(build_cpu_input(args.corpus, args.samples, args.build_in))}))
        return
    if args.parse:
        print(json.dumps(parse(args.parse)))
        return
    if args.export:
        print(json.dumps(export(args.export, args.raw, args.out, args.profile)))
        return
    if not args.reuse and not (args.corpus / CPU_SOURCE).is_file():
        parser.error(f"corpus not found at {args.corpus} (use --corpus DIR)")

    tmp = args.reuse or Path(tempfile.mkdtemp(prefix="stallscope-bench-bundle-"))
    tmp.chmod(0o755)
    try:
        if args.reuse:
            state = reuse_incident(tmp)
        else:
            print(f"building an incident of at least {args.samples:,} samples ...", flush=True)
            state = build_incident(tmp, args.corpus, args.samples)
            (tmp / "state.json").write_text(json.dumps(state))
            settle(state)
        run(state, tmp, args)
    finally:
        if args.keep or args.reuse:
            print(f"kept {tmp}: measure it again with --reuse {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)


def run(state: dict[str, Any], tmp: Path, args: argparse.Namespace) -> None:
    captures = captures_of(state)
    compressed = sum(c["size_bytes"] for c in captures)
    samples = sum(c["sample_count"] for c in captures)
    print(f"\nincident {state['incident']}: {samples:,} samples in {len(captures)} captures:")
    for c in captures:
        print(
            f"  {c['filename']:28} {c['status']:8} {c['size_bytes'] / 1e6:8.2f} MB stored, "
            f"{c['size_uncompressed'] / 1e6:9.2f} MB decompressed, {c['sample_count']:,} samples"
        )
    print(f"  compressed captures (sum of size_bytes): {compressed / 1e6:,.2f} MB")
    print(f"load average before the exports: {load_average()}", flush=True)

    profile = ["--profile"] if args.profile else []
    exports: dict[str, dict[str, Any]] = {}
    for label, raw in (("default", False), ("raw", True)):
        if raw and args.no_raw:
            continue
        out = tmp / f"bundle-{label}.zip"
        exports[label] = child(
            "--export",
            str(state["incident"]),
            *(["--raw"] if raw else []),
            "--out",
            str(out),
            *profile,
            script=__file__,
        )
        exports[label]["path"] = str(out)

    print(f"measuring the baselines (load average {load_average()}) ...", flush=True)
    stored = zip_stored(captures, tmp / "baseline-stored.zip")
    records = gzip_records(state["url"], [c["id"] for c in captures])
    largest = max(captures, key=lambda c: c["size_uncompressed"])
    deflated = deflate_raw(Path(largest["blob_path"])) if "raw" in exports else None
    redacted = redactor_throughput(state, Path(largest["blob_path"]), args.redact_mb)
    naive = naive_redaction(Path(largest["blob_path"]), args.redact_mb, redacted["names"])
    cpu = max(captures, key=lambda c: c["sample_count"] or 0)
    yardsticks = measure_baselines(Path(cpu["blob_path"]), tmp, "the incident's CPU capture", cpu["filename"])

    print(f"\nload average after: {load_average()}")
    for label, figures in exports.items():
        title = "export, default redaction, no raw" if label == "default" else "export with raw: true"
        print_export(title, figures, Path(figures["path"]), compressed)
        if "profile" in figures:
            print(figures["profile"])

    print(f"\n{'':52} {'seconds':>8} {'MB':>9} {'vs captures':>12}")
    rows = [("baseline: compressed captures zipped as they are", stored["seconds"], stored["bytes"])]
    rows.append(
        (
            f"baseline: rows COPY'd out, gzip -6 ({records['raw_bytes'] / 1e6:,.0f} MB of text)",
            records["seconds"],
            records["bytes"],
        )
    )
    if deflated is not None:
        rows.append(
            (
                "baseline: largest raw capture, deflated -6, no redaction",
                deflated["seconds"],
                deflated["bytes"],
            )
        )
    for label, figures in exports.items():
        rows.append((f"bundle ({label})", figures["seconds"], figures["bytes"]))
    for label, seconds, size in rows:
        print(f"{label:52} {seconds:8.2f} {size / 1e6:9.2f} {size / compressed:11.2f}x")

    mb = redacted["bytes"] / 1e6
    print(f"\nredactor over {mb:,.0f} MB of {largest['filename']} (decompressed), CPU time;")
    print(f"names the export knows: {', '.join(sorted(redacted['names']))}")
    for label, figures in (
        (f"naive re.sub, one alternation of {naive['names']} names", naive),
        ("redactor.lines (default policy)", redacted),
    ):
        print(
            f"  {label:46} {figures['bytes'] / 1e6 / figures['cpu_s']:6.1f} MB/s  "
            f"({figures['cpu_s']:.1f} s CPU, {figures['wall_s']:.1f} s wall, "
            f"{figures['replacements']:,} replacements)  {naive['cpu_s'] / figures['cpu_s']:.2f}x"
        )

    print()
    print_baselines(yardsticks)
    for label, figures in exports.items():
        ratios = versus(yardsticks, seconds=figures["seconds"])
        print(f"  bundle ({label}), {figures['seconds']:.2f} s: {ratios}")

    print()
    for label, figures in exports.items():
        print(
            f"{verdict(figures['seconds'] < TARGET_SECONDS)}  export ({label}) under {TARGET_SECONDS:.0f} s: "
            f"{figures['seconds']:.1f} s"
        )
        print(
            f"{verdict(figures['bytes'] < TARGET_RATIO * compressed)}  bundle ({label}) under "
            f"{TARGET_RATIO:.0f}x the compressed captures: {figures['bytes'] / compressed:.2f}x"
        )


if __name__ == "__main__":
    main()
