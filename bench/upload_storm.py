"""An upload storm: 50 collectors send 200 captures of 5-20 MB at once to the production wiring.

    python bench/upload_storm.py                        # 200 uploads from 50 collectors
    python bench/upload_storm.py --uploads 40 --collectors 10 --max-mb 8   # a quick look

The wiring runs on loopback (`storm_stack.py`): the API (`serve --no-worker`) and two workers
(`stallscope worker`), each in a data directory of its own, over Redis, PostgreSQL (with TimescaleDB
when its build is beside the checkout) and an S3-compatible object store (S3Proxy). Every simulated
collector is a thread running the collector's own sender over a spool of its own, with a collector
token of its own: it honours 429/503 and Retry-After, and every try of a capture carries the same
idempotency key. The captures are slices of the corpus's real `cpu20s` capture, each with a first
line of its own so that no two uploads have the same bytes.

Checked, not just timed: every capture sent is in the incident exactly once (by SHA-256 of what was
sent), parsed, and every spool is empty. Measured: uploads/s and MB/s accepted, refusals, the peak
parse queue, the time for the queue to drain after the last upload, and `/api/health` and a
flame-graph request answered every 0.5 s throughout (p50/p99). Baselines, same run: the same bodies
PUT straight into the object store from as many threads (what the store alone takes), and the
naive collapse and inferno over the corpus capture the bodies are cut from.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import io
import json
import os
import random
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from statistics import quantiles
from typing import Any

import httpx

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH.parent / "backend"))
sys.path.insert(0, str(BENCH.parent / "collectors"))
sys.path.insert(0, str(BENCH))

from baselines import CPU20S, DEFAULT_CORPUS, measure_baselines, print_baselines, versus  # noqa: E402
from storm_stack import Stack, production_stack  # noqa: E402

PROBE_EVERY_S = 0.5
MB = 1e6


@dataclass
class Upload:
    collector: int
    number: int
    body: Path
    sha256: str
    size: int


@dataclass
class Probes:
    """What the health and flame requests saw while the storm lasted."""

    health_ms: list[float] = field(default_factory=list)
    health_failures: list[str] = field(default_factory=list)
    flame_ms: list[float] = field(default_factory=list)
    flame_failures: list[str] = field(default_factory=list)
    peak_queued: int = 0
    peak_broker: int = 0
    peak_in_flight: int = 0
    uploads_done: threading.Event = field(default_factory=threading.Event)
    drained_at: float | None = None
    """The first moment after the last upload was acknowledged that nothing waited or parsed."""


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--uploads", type=int, default=200)
    parser.add_argument("--collectors", type=int, default=50)
    parser.add_argument("--min-mb", type=float, default=5)
    parser.add_argument("--max-mb", type=float, default=20)
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument(
        "--time-limit", type=float, default=1200, help="seconds for uploads and drain together"
    )
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    if not 0 < args.min_mb <= args.max_mb:
        parser.error("--min-mb must be above 0 and at most --max-mb")
    source = args.corpus / CPU20S
    with tempfile.TemporaryDirectory(prefix="stallscope-storm-") as scratch:
        folder = Path(scratch)
        uploads = cut_uploads(source, folder / "bodies", args)
        sent_mb = sum(u.size for u in uploads) / MB
        print(
            f"{len(uploads)} uploads from {args.collectors} collectors, {sent_mb:,.0f} MB in all "
            f"({min(u.size for u in uploads) / MB:.1f}-{max(u.size for u in uploads) / MB:.1f} MB each), "
            f"cut from {source.name}"
        )
        baselines = measure_baselines(source, folder, note="the capture the uploads are cut from")
        with production_stack(folder / "stack") as stack:
            print(
                f"wiring: API + 2 workers (concurrency 1) + Redis + {stack.database_kind} + S3Proxy, loopback"
            )
            outcome = storm(stack, uploads, folder, args)
            store_mb_s = store_baseline(stack, uploads, args.collectors)
            footprint = storage_footprint(stack.database_url)
        report(outcome, uploads, baselines, store_mb_s)
        print(footprint)
        return 0 if outcome.problems == [] else 1


def cut_uploads(source: Path, folder: Path, args: argparse.Namespace) -> list[Upload]:
    """Slices of the capture at sample boundaries, 5-20 MB, each with a line of its own first."""
    text = gzip.decompress(source.read_bytes())
    starts = [0] + [i + 2 for i in _find_all(text, b"\n\n")]
    rng = random.Random(args.seed)
    folder.mkdir(parents=True)
    uploads = []
    for number in range(args.uploads):
        size = int(rng.uniform(args.min_mb, args.max_mb) * MB)
        start = rng.choice(starts[:-1])
        body = text[start : start + size]
        while len(body) < size:  # wrap around to the capture's start
            body += text[: size - len(body)]
        cut = body.rfind(b"\n\n") + 2
        collector = number % args.collectors
        data = f"# upload storm: capture {number} from collector {collector}\n".encode() + body[:cut]
        path = folder / f"{number}.txt"
        path.write_bytes(data)
        uploads.append(Upload(collector, number, path, hashlib.sha256(data).hexdigest(), len(data)))
    return uploads


def _find_all(text: bytes, needle: bytes) -> list[int]:
    found, at = [], text.find(needle)
    while at != -1:
        found.append(at)
        at = text.find(needle, at + 1)
    return found


@dataclass
class Outcome:
    started: float
    last_ack: float
    drained: float | None
    probes: Probes
    gate: dict[str, float]
    problems: list[str]
    statuses: dict[str, int]


def storm(stack: Stack, uploads: list[Upload], folder: Path, args: argparse.Namespace) -> Outcome:
    from signed_in import admin_headers

    admin = {**admin_headers(stack.database_url), "X-Requested-With": "stallscope"}
    client = httpx.Client(base_url=stack.api_url, headers=admin, timeout=60)
    incident = client.post(
        "/api/incidents", json={"title": "upload storm", "started_at": "2026-11-26T08:00:00Z"}
    ).json()["id"]
    flame_capture = warm_up(client, incident, uploads[0])
    tokens = collector_tokens(stack.database_url, incident, args.collectors)
    spools = spool_uploads(folder / "spools", uploads, stack.api_url, incident)

    probes, stop_probes = Probes(), threading.Event()
    prober = threading.Thread(
        target=probe, args=(stack.api_url, admin, flame_capture, probes, stop_probes), daemon=True
    )
    deadline = time.monotonic() + args.time_limit
    started = time.monotonic()
    prober.start()
    with ThreadPoolExecutor(max_workers=args.collectors) as pool:
        acks = list(pool.map(lambda c: run_collector(spools[c], tokens[c], deadline), range(args.collectors)))
    last_ack = max(acks)
    probes.uploads_done.set()
    while probes.drained_at is None and time.monotonic() < deadline:
        time.sleep(0.2)
    stop_probes.set()
    prober.join(10)
    problems = check_arrivals(client, incident, uploads, spools, flame_capture)
    gate = gate_counters(client)
    statuses: dict[str, int] = {}
    for capture in client.get(f"/api/incidents/{incident}/captures").json():
        statuses[capture["status"]] = statuses.get(capture["status"], 0) + 1
    client.close()
    return Outcome(started, last_ack, probes.drained_at, probes, gate, problems, statuses)


def warm_up(client: httpx.Client, incident: int, first: Upload) -> int:
    """One capture uploaded and parsed before the storm: the flame graph the probe asks for."""
    answer = client.post(
        f"/api/incidents/{incident}/captures",
        params={"filename": "before-the-storm.txt", "host": "probe"},
        content=first.body.read_bytes() + b"\n# parsed before the storm\n",
        headers={"Content-Type": "application/octet-stream"},
    )
    capture = answer.json()["id"]
    while client.get(f"/api/captures/{capture}").json()["status"] in {"queued", "parsing"}:
        time.sleep(0.2)
    return int(capture)


def collector_tokens(database_url: str, incident: int, count: int) -> list[str]:
    """A collector token per simulated host, limited to the incident and its host, as in a fleet."""
    from stallscope.db import get_session_factory
    from stallscope.tokens import service
    from stallscope.tokens.schemas import TokenCreate

    with get_session_factory(database_url)() as session:
        secrets = [
            service.create_token(
                session, TokenCreate(name=f"storm-{c}", incident_id=incident, host=f"host-{c:02}")
            ).secret
            for c in range(count)
        ]
        session.commit()
    return secrets


def spool_uploads(folder: Path, uploads: list[Upload], server: str, incident: int) -> dict[int, Path]:
    """Each collector's spool, as `record` leaves it: a body and its sidecar per capture."""
    from stallscope_collect.upload.spool import new_upload_key

    spools: dict[int, Path] = {}
    for upload in uploads:
        spool = spools.setdefault(upload.collector, folder / f"collector-{upload.collector:02}")
        spool.mkdir(parents=True, exist_ok=True)
        base = spool / f"{upload.number:04}-capture"
        # A second name for the body (the spool's name, compressed or not): the sender removes it
        # once the capture is taken, the original stays for the object store's baseline.
        os.link(upload.body, base.with_suffix(".gz"))
        sidecar = {
            "version": 1,
            "server": server,
            "incident": incident,
            "filename": f"capture-{upload.number}.txt",
            "host": f"host-{upload.collector:02}",
            "kind": "cpu",
            "meta": {"storm": upload.number},
            "upload_key": new_upload_key(),
            "attempts": 0,
        }
        base.with_suffix(".json").write_text(json.dumps(sidecar))
    return spools


def run_collector(spool_dir: Path, token: str, deadline: float) -> float:
    """Send the spool until it is empty, as `flush` would, again after a refusal; when the last
    capture was acknowledged."""
    from stallscope_collect.console import Console
    from stallscope_collect.upload.sender import UploadSettings, send_all
    from stallscope_collect.upload.spool import Spool

    spool = Spool(str(spool_dir))
    console = Console(quiet=True, stream=io.StringIO())
    settings = UploadSettings(token=token, retries=5, retry_delay=1.0, timeout=300)
    while (entries := spool.entries()) and time.monotonic() < deadline:
        send_all(spool, entries, settings, console)
    return time.monotonic()


def probe(
    api: str, headers: dict[str, str], flame_capture: int, probes: Probes, stop: threading.Event
) -> None:
    """Health and a flame graph every PROBE_EVERY_S; the queue's peak; when it drained."""
    with httpx.Client(base_url=api, headers=headers, timeout=60) as client:
        while not stop.is_set():
            started = time.perf_counter()
            try:
                health = client.get("/api/health")
                probes.health_ms.append((time.perf_counter() - started) * 1000)
                if health.status_code != 200:
                    probes.health_failures.append(f"HTTP {health.status_code}: {health.text[:200]}")
                queue = health.json()["queue"] or {}
                waiting = queue.get("queued", 0) + queue.get("parsing", 0)
                probes.peak_queued = max(probes.peak_queued, queue.get("queued", 0))
                probes.peak_broker = max(probes.peak_broker, queue.get("broker_messages") or 0)
                probes.peak_in_flight = max(probes.peak_in_flight, queue.get("uploads_in_flight", 0))
                if probes.uploads_done.is_set() and waiting == 0 and probes.drained_at is None:
                    probes.drained_at = time.monotonic()
            except (httpx.HTTPError, ValueError) as exc:
                probes.health_failures.append(f"{type(exc).__name__}: {exc}")
            started = time.perf_counter()
            try:
                flame = client.get("/api/flame", params={"captures": flame_capture})
                probes.flame_ms.append((time.perf_counter() - started) * 1000)
                if flame.status_code != 200:
                    probes.flame_failures.append(f"HTTP {flame.status_code}")
            except httpx.HTTPError as exc:
                probes.flame_failures.append(f"{type(exc).__name__}: {exc}")
            stop.wait(PROBE_EVERY_S)


def check_arrivals(
    client: httpx.Client, incident: int, uploads: list[Upload], spools: dict[int, Path], flame_capture: int
) -> list[str]:
    """Every capture sent is in the incident once, parsed; every spool is empty."""
    problems = []
    stored: dict[str, int] = {}
    for capture in client.get(f"/api/incidents/{incident}/captures").json():
        if capture["id"] == flame_capture:
            continue
        stored[capture["sha256"]] = stored.get(capture["sha256"], 0) + 1
        if capture["status"] not in {"ready", "partial"}:
            problems.append(f"capture {capture['id']} ended {capture['status']}: {capture['error']}")
    sent = {u.sha256 for u in uploads}
    lost = sent - set(stored)
    doubled = {sha: n for sha, n in stored.items() if n > 1}
    unknown = set(stored) - sent
    problems += [f"lost: {len(lost)} of {len(sent)}"] if lost else []
    problems += [f"duplicated: {len(doubled)} ({sum(doubled.values())} rows)"] if doubled else []
    problems += [f"stored but never sent: {len(unknown)}"] if unknown else []
    left = [p.name for spool in spools.values() for p in spool.glob("*.json")]
    problems += [f"still spooled: {len(left)}"] if left else []
    return problems


def gate_counters(client: httpx.Client) -> dict[str, float]:
    counters = {}
    for line in client.get("/api/metrics").text.splitlines():
        if line.startswith("stallscope_uploads_total{"):
            outcome = line.split('outcome="', 1)[1].split('"', 1)[0]
            counters[outcome] = float(line.rsplit(" ", 1)[1])
    return counters


def store_baseline(stack: Stack, uploads: list[Upload], threads: int) -> float:
    """MB/s of the same bodies PUT straight into the object store from `threads` threads."""
    os.environ.update(stack.s3_environment)
    from stallscope.blobs.configured import make_store

    store = make_store("s3://storm-baseline/raw", Path("unused"))
    store.prepare()

    def put(upload: Upload) -> None:
        writer = store.start_upload(1 << 40)
        with upload.body.open("rb") as body:
            while chunk := body.read(1 << 20):
                writer.write(chunk)
        writer.commit()

    started = time.perf_counter()
    with ThreadPoolExecutor(max_workers=threads) as pool:
        list(pool.map(put, uploads))
    return sum(u.size for u in uploads) / MB / (time.perf_counter() - started)


def storage_footprint(database_url: str) -> str:
    """What the storm's captures take in the database: bytes per sample stored, and with
    TimescaleDB, after its compression (which the policy applies to chunks a week old) is run now."""
    import psycopg

    from stallscope.db import libpq_url

    with psycopg.connect(libpq_url(database_url), autocommit=True) as conn:
        samples = int(conn.execute("SELECT count(*) FROM samples").fetchone()[0])  # type: ignore[index]
        database = int(conn.execute("SELECT pg_database_size(current_database())").fetchone()[0])  # type: ignore[index]
        timescale = conn.execute("SELECT 1 FROM pg_extension WHERE extname = 'timescaledb'").fetchone()
        if not timescale:
            table = int(conn.execute("SELECT pg_total_relation_size('samples')").fetchone()[0])  # type: ignore[index]
            return (
                f"database: {database / MB:,.0f} MB for {samples:,} samples; samples table "
                f"{table / samples:.0f} bytes a sample (plain PostgreSQL: no compression)"
            )
        before = int(conn.execute("SELECT hypertable_size('samples')").fetchone()[0])  # type: ignore[index]
        started = time.perf_counter()
        conn.execute("SELECT compress_chunk(c, if_not_compressed => true) FROM show_chunks('samples') c")
        compress_s = time.perf_counter() - started
        after = int(conn.execute("SELECT hypertable_size('samples')").fetchone()[0])  # type: ignore[index]
    return (
        f"database: {database / MB:,.0f} MB for {samples:,} samples; the samples hypertable "
        f"{before / samples:.0f} bytes a sample, {after / samples:.0f} once compressed "
        f"({before / after:.1f}x; compressing took {compress_s:.1f} s)"
    )


def report(outcome: Outcome, uploads: list[Upload], baselines: Any, store_mb_s: float) -> None:
    upload_s = outcome.last_ack - outcome.started
    sent_mb = sum(u.size for u in uploads) / MB
    probes = outcome.probes
    print()
    print(
        f"uploads acknowledged: {len(uploads)} in {upload_s:.1f} s: {len(uploads) / upload_s:.2f} uploads/s, "
        f"{sent_mb / upload_s:.1f} MB/s accepted"
    )
    print(
        f"refused and sent again: {outcome.gate.get('refused_busy', 0):.0f} busy (503), "
        f"{outcome.gate.get('refused_rate', 0):.0f} over a token's rate (429); "
        f"admitted {outcome.gate.get('admitted', 0):.0f} (each retry of a refused upload is admitted once)"
    )
    print(
        f"peak parse queue: {probes.peak_queued} captures queued ({probes.peak_broker} broker messages), "
        f"{probes.peak_in_flight} uploads in flight at once"
    )
    if outcome.drained is not None:
        drain = outcome.drained - outcome.last_ack
        total = outcome.drained - outcome.started
        print(
            f"queue drained {drain:.1f} s after the last upload ({total:.1f} s from the first): "
            f"{sent_mb / total:.1f} MB/s parsed end to end by two workers"
        )
    else:
        print("the queue did not drain within the time limit")
    print(
        f"/api/health during the storm: {len(probes.health_ms)} answers, p50 {_p(probes.health_ms, 50)} ms, "
        f"p99 {_p(probes.health_ms, 99)} ms, {len(probes.health_failures)} not 200"
    )
    print(
        f"flame graph during the storm: {len(probes.flame_ms)} answers, p50 {_p(probes.flame_ms, 50)} ms, "
        f"p99 {_p(probes.flame_ms, 99)} ms, {len(probes.flame_failures)} failed"
    )
    print(f"captures: {outcome.statuses}")
    print(
        f"baseline, same run: the bodies PUT straight into the object store: {store_mb_s:.1f} MB/s "
        f"(the console took {sent_mb / upload_s / store_mb_s:.2f}x that)"
        if store_mb_s
        else ""
    )
    print_baselines(baselines)
    print(f"accepted MB/s against them: {versus(baselines, mb_per_s=sent_mb / upload_s)}")
    print(
        "checked: "
        + (
            "none lost, none duplicated, all parsed, every spool empty"
            if not outcome.problems
            else "; ".join(outcome.problems)
        )
    )
    for failure in (probes.health_failures + probes.flame_failures)[:5]:
        print(f"  probe failure: {failure}")


def _p(values: list[float], percent: int) -> str:
    if len(values) < 2:
        return "n/a"
    return f"{quantiles(values, n=100, method='inclusive')[percent - 1]:.0f}"


if __name__ == "__main__":
    sys.exit(main())
