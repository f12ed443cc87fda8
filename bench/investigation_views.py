"""Query latency of the investigation views on a big incident: timeline, flame, diff, threads, heatmap.

    python bench/investigation_views.py               # 10 hosts: 10M CPU samples, 1M scheduler events
    python bench/investigation_views.py --hosts 2     # a quick look
    python bench/investigation_views.py --hosts 1 --samples 100000   # a quicker one
    python bench/investigation_views.py --keep        # keep the database (prints how to serve it)
    python bench/investigation_views.py --browser     # also time the views in Chromium (Playwright)
    python bench/investigation_views.py --database-url postgresql://...   # e.g. a TimescaleDB server

Each host gets a CPU capture of ~1M samples (`--samples`: the shared corpus's `cpu20s.perf.txt.gz`
repeated with shifted times; real stacks up to 127 frames) and a scheduler capture
(`offcpu5s.perf.txt.gz`: ~105k off-CPU and on-CPU intervals), all aligned on one wall-clock axis with
upload offsets, and parsed by the parse job the worker runs. Identical bytes are stored once, as
uploads are. A fresh embedded PostgreSQL holds it all (plain PostgreSQL), unless `--database-url`
names another server, e.g. one with TimescaleDB, where wide flame-graph ranges read its per-second
rollup; the header says which.

Each view's API request is timed through the real FastAPI app, median of `--repeat` runs with the
in-process caches cleared (first request after a parse) and kept (the same view again). Baseline,
measured in the same run: one sequential scan of the rows the view covers (`count(*)` of the
selected samples or events), the least any view computed from raw rows would pay. After the views,
the two yardsticks every benchmark prints (`baselines.py`: the naive collapse and
`inferno-collapse-perf --nthreads 1`) over one host's CPU capture, and each view's time against
them (how many times over each could have collapsed that one capture; the incident holds one per
host).

`--browser` then serves the incident with `stallscope serve` and opens each view in Debian's
Chromium (frontend/bench/views.bench.ts), reading the `performance.measure` entries the app records:
from data arriving to drawn, and from a brush or a zoom key to the new range drawn.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from statistics import median
from typing import Any

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH.parent / "backend"))
sys.path.insert(0, str(BENCH))

from baselines import Baselines, measure_baselines, print_baselines, versus  # noqa: E402
from ingest_and_query import child, record_capture, repeated_capture  # noqa: E402
from parser_throughput import DEFAULT_CORPUS  # noqa: E402

T0 = datetime(2026, 11, 21, 8, 0, 0, tzinfo=UTC)
CPU_SAMPLES_PER_HOST = 1_000_000
TIMELINE_WIDTH_PX = 1500


def first_time_ns(path: Path) -> int:
    """The capture clock time of the file's first record, to align it with an upload offset."""
    from stallscope.commands.local_file import open_local_capture

    with open_local_capture(path) as capture:
        for record in capture.records():
            t = getattr(record, "time_ns", None) or getattr(record, "start_ns", None)
            if t:
                return int(t)
    raise SystemExit(f"{path}: no timed record")


def build_incident(
    tmp: Path, hosts: int, corpus: Path, database_url: str | None, samples: int = CPU_SAMPLES_PER_HOST
) -> dict[str, Any]:
    from stallscope.config import get_settings
    from stallscope.embedded import start_embedded_postgres
    from stallscope.migrate import upgrade_to_head

    cpu_path = repeated_capture(samples, corpus, tmp)
    sched_path = corpus / "captures" / "offcpu5s.perf.txt.gz"
    url = database_url or start_embedded_postgres(tmp / "pgdata")
    upgrade_to_head(url)
    os.environ.update(DATABASE_URL=url, STALLSCOPE_DATA_DIR=str(tmp))
    get_settings.cache_clear()

    t0_ns = int(T0.timestamp()) * 10**9
    cpu_offset, sched_offset = t0_ns - first_time_ns(cpu_path), t0_ns - first_time_ns(sched_path)
    incident_id: int | None = None
    cpu_ids: list[int] = []
    sched_ids: list[int] = []
    for host in range(hosts):
        # CPU captures start together; each host's 5 s scheduler capture sits at its own minute.
        for path, offset, ids in (
            (cpu_path, cpu_offset + host * 10**8, cpu_ids),
            (sched_path, sched_offset + host * 60 * 10**9, sched_ids),
        ):
            capture_id, incident_id = record_capture_on(
                url, path, tmp, f"host-{host:02d}", offset, incident_id
            )
            ids.append(capture_id)
    started = time.perf_counter()
    for capture_id in cpu_ids + sched_ids:
        child("--parse", str(capture_id), script=__file__)
        print(f"  parsed capture {capture_id} ({time.perf_counter() - started:.0f} s so far)", flush=True)
    assert incident_id is not None
    return {
        "url": url,
        "embedded": database_url is None,
        "incident": incident_id,
        "cpu": cpu_ids,
        "sched": sched_ids,
        "ingest_s": time.perf_counter() - started,
    }


def reuse_incident(tmp: Path) -> dict[str, Any]:
    from stallscope.config import get_settings
    from stallscope.embedded import start_embedded_postgres

    state: dict[str, Any] = json.loads((tmp / "state.json").read_text())
    if state.get("embedded", True):
        state["url"] = start_embedded_postgres(tmp / "pgdata")
    os.environ.update(DATABASE_URL=state["url"], STALLSCOPE_DATA_DIR=str(tmp))
    get_settings.cache_clear()
    return state


def record_capture_on(
    url: str, path: Path, tmp: Path, host: str, offset_ns: int, incident_id: int | None
) -> tuple[int, int]:
    from stallscope.db import get_session_factory
    from stallscope.models import Capture

    capture_id = record_capture(url, path, tmp)
    with get_session_factory(url)() as session:
        capture = session.get(Capture, capture_id)
        assert capture is not None
        own_incident = capture.incident_id
        if incident_id is not None and own_incident != incident_id:
            capture.incident_id = incident_id
        capture.clock = {"offset_ns_given": offset_ns}
        from stallscope.captures.repository import host_id_for

        capture.host_id = host_id_for(session, host)
        session.commit()
        return capture_id, incident_id if incident_id is not None else own_incident


def timed(fn: Callable[[], Any], repeat: int, before: Callable[[], None] | None = None) -> list[float]:
    out = []
    for _ in range(repeat):
        if before is not None:
            before()
        start = time.perf_counter()
        fn()
        out.append(time.perf_counter() - start)
    return out


def clear_caches() -> None:
    """What a first request after a parse finds: nothing cached in the process."""
    import process_caches

    process_caches.clear()


def measure(state: dict[str, Any], repeat: int) -> list[tuple[str, list[float], str]]:
    from fastapi.testclient import TestClient
    from signed_in import admin_headers
    from sqlalchemy import text

    from stallscope.db import get_session_factory
    from stallscope.main import create_app

    cpu = ",".join(map(str, state["cpu"]))
    sched = ",".join(map(str, state["sched"]))
    half = len(state["cpu"]) // 2 or 1
    rows: list[tuple[str, list[float], str]] = []
    baselines: list[tuple[str, list[float], str]] = []

    def scan(sql: str) -> Callable[[], Any]:
        def run() -> Any:
            with get_session_factory(state["url"])() as session:
                return session.execute(text(sql)).scalar_one()

        return run

    with TestClient(
        create_app(), base_url="http://localhost", headers=admin_headers(os.environ["DATABASE_URL"])
    ) as client:

        def get(path: str, **params: Any) -> Callable[[], Any]:
            def run() -> Any:
                response = client.get(path, params=params)
                response.raise_for_status()
                return response.content  # the server's time: parsing the body is the client's

            return run

        flame = get("/api/flame", captures=cpu)
        rows.append(("flame graph, full range, first", timed(flame, repeat, clear_caches), "< 1 s"))
        rows.append(("flame graph, full range, again", timed(flame, repeat), "< 1 s"))
        span_end = T0 + timedelta(seconds=60)
        ranged = get("/api/flame", captures=cpu, start=T0.isoformat(), end=span_end.isoformat())
        rows.append(("flame graph, a 60 s range", timed(ranged, repeat, clear_caches), "< 1 s"))

        diff_path = "/api/diff"
        a = ",".join(map(str, state["cpu"][:half]))
        b = ",".join(map(str, state["cpu"][half:])) or a
        diff = get(diff_path, **{"a.captures": a, "b.captures": b})
        rows.append(("diff, full range, hosts A vs B, first", timed(diff, repeat, clear_caches), "< 1 s"))
        rows.append(("diff, full range, again", timed(diff, repeat), "< 1 s"))

        threads = get("/api/threads", captures=sched)
        rows.append(("thread states, every sched capture", timed(threads, repeat), "< 1 s"))
        one_second = get(
            "/api/threads", captures=sched, start=T0.isoformat(), end=(T0 + timedelta(seconds=1)).isoformat()
        )
        rows.append(("thread states, a 1 s range", timed(one_second, repeat), "< 1 s"))

        heatmap = get("/api/heatmap", captures=cpu)  # the default view: CPU samples, 50 rows
        rows.append(("heatmap of the CPU samples (10 ms slices)", timed(heatmap, repeat), "< 500 ms"))
        raw_heatmap = get("/api/heatmap", captures=cpu, rows=40)  # 25 ms rows: not whole slices
        rows.append(("heatmap, 40 rows (binned from raw samples)", timed(raw_heatmap, repeat), ""))

        def findings_after_last_parse() -> None:
            from stallscope.findings import service as findings_service

            findings_service.after_parse(get_session_factory(state["url"]), state["sched"][-1])

        def findings_of_every_host() -> None:
            from stallscope.findings import service as findings_service

            with get_session_factory(state["url"])() as session:
                findings_service.compute(session, state["incident"])
                session.commit()

        rows.append(("findings, every host recomputed", timed(findings_of_every_host, repeat), ""))
        rows.append(
            (
                "findings after a parse: its digest + its host's findings",
                timed(findings_after_last_parse, repeat),
                "< 2 s",
            )
        )
        findings = get(f"/api/incidents/{state['incident']}/findings")
        rows.append(("findings, read", timed(findings, repeat), ""))

        tracks = client.get("/api/timeline/tracks", params={"incident": state["incident"]})
        if tracks.status_code == 200:
            rows += timeline_rows(client, state, tracks.json(), repeat)
        else:
            print(f"timeline: tracks endpoint answered {tracks.status_code}; skipped", flush=True)
    # Last: a full scan evicts what the views keep in PostgreSQL's buffers, which no view would do.
    baselines.append(
        (
            "baseline: scan the samples",
            timed(scan(f"SELECT count(*) FROM samples WHERE capture_id IN ({cpu})"), repeat),
            "",
        )
    )
    baselines.append(
        (
            "baseline: scan the events",
            timed(scan(f"SELECT count(*) FROM events WHERE capture_id IN ({sched})"), repeat),
            "",
        )
    )

    return baselines + rows


def timeline_rows(
    client: Any, state: dict[str, Any], tracks: Any, repeat: int
) -> list[tuple[str, list[float], str]]:
    ids = track_ids(tracks)[:20]
    out = []
    full_end = T0 + timedelta(seconds=60 * len(state["sched"]) + 600)
    for label, start, end in (
        ("full incident", T0 - timedelta(seconds=5), full_end),
        ("60 s", T0, T0 + timedelta(seconds=60)),
        ("1 s", T0 + timedelta(seconds=30), T0 + timedelta(seconds=31)),
        ("10 ms", T0 + timedelta(seconds=30), T0 + timedelta(seconds=30, milliseconds=10)),
    ):
        params = {
            "incident": state["incident"],
            "tracks": ",".join(ids),
            "start": start.isoformat(),
            "end": end.isoformat(),
            "width": TIMELINE_WIDTH_PX,
        }

        def run(params: dict[str, Any] = params) -> None:
            client.get("/api/timeline", params=params).raise_for_status()

        out.append((f"timeline, {len(ids)} tracks, {label}", timed(run, repeat), "< 300 ms"))
    return out


def track_ids(tracks: Any) -> list[str]:
    """Every track id in the tracks answer, whatever its nesting (hosts → tracks)."""
    found: list[str] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if isinstance(node.get("id"), str):
                found.append(node["id"])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for item in node:
                walk(item)

    walk(tracks)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--hosts", type=int, default=10, help="hosts in the incident (default 10)")
    parser.add_argument(
        "--samples", type=int, default=CPU_SAMPLES_PER_HOST, help="CPU samples a host (default 1M)"
    )
    parser.add_argument("--repeat", type=int, default=5, help="runs per figure; the median is shown")
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS, help="the shared corpus folder")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder and database")
    parser.add_argument("--browser", action="store_true", help="also time the views in Chromium")
    parser.add_argument("--reuse", type=Path, metavar="DIR", help="measure a folder kept by --keep again")
    parser.add_argument(
        "--database-url",
        metavar="URL",
        help="build the incident in this PostgreSQL (e.g. one with TimescaleDB) instead of a fresh "
        "embedded one; its schema is migrated first",
    )
    parser.add_argument("--parse", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.parse:
        from stallscope.captures.parsing import parse_capture

        parse_capture(os.environ["DATABASE_URL"], args.parse)
        print(json.dumps({"ok": True}))
        return

    tmp = args.reuse or Path(tempfile.mkdtemp(prefix="stallscope-bench-views-"))
    tmp.chmod(0o755)
    try:
        if args.reuse:
            state = reuse_incident(tmp)
        else:
            print(f"building an incident of {args.hosts} hosts ...", flush=True)
            state = build_incident(tmp, args.hosts, args.corpus, args.database_url, args.samples)
            (tmp / "state.json").write_text(json.dumps(state))
            settle(state)
        counts = counts_of(state)
        print(
            f"incident: {counts['samples']:,} CPU samples, {counts['events']:,} scheduler events, "
            f"ingested in {state['ingest_s']:.0f} s, on {database_of(state)}\n",
            flush=True,
        )
        rows = measure(state, args.repeat)
        yardsticks = measure_baselines(cpu_capture(state), tmp, name="one host's CPU capture")
        print_rows(rows, yardsticks)
        if args.browser:
            print_browser(measure_browser(state, tmp, args.repeat))
    finally:
        if args.keep or args.reuse:
            print(f"kept {tmp}: measure it again with --reuse {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)


def print_rows(rows: list[tuple[str, list[float], str]], yardsticks: Baselines) -> None:
    base_samples = median(rows[0][1])
    base_events = median(rows[1][1])
    print_baselines(yardsticks)
    print(f"{'':44} {'median':>9} {'min':>9} {'target':>9} {'vs scan':>8}   against the yardsticks")
    for label, times, target in rows:
        base = base_events if "thread" in label or "events" in label else base_samples
        baseline = label.startswith("baseline")
        ratio = f"{base / median(times):.2f}x" if not baseline else ""
        against = "" if baseline else versus(yardsticks, seconds=median(times))
        print(
            f"{label:44} {median(times) * 1000:7.0f}ms {min(times) * 1000:7.0f}ms {target:>9} {ratio:>8}   "
            f"{against}"
        )


def cpu_capture(state: dict[str, Any]) -> Path:
    """The stored file of the first host's CPU capture (every host's is the same bytes)."""
    from sqlalchemy import text

    from stallscope.db import get_session_factory

    with get_session_factory(state["url"])() as session:
        blob = session.execute(
            text("SELECT blob_path FROM captures WHERE id = :id"), {"id": state["cpu"][0]}
        ).scalar_one()
    return Path(blob)


def print_browser(browser: dict[str, list[float]]) -> None:
    print(f"\nin Chromium (performance.measure){'':10} {'median':>9} {'max':>9}")
    for label, values in browser.items():
        unit = "" if "tracks" in label else "ms"
        print(f"{label:44} {median(values):7.0f}{unit:2} {max(values):7.0f}{unit:2}")


def measure_browser(state: dict[str, Any], tmp: Path, repeat: int) -> dict[str, list[float]]:
    """Serve the incident (API only: nothing left to parse) and time the views in Chromium."""
    port = 8791
    dist = tmp / "dist"
    subprocess.run(
        ["npx", "vite", "build", "--outDir", str(dist), "--emptyOutDir"],
        cwd=BENCH.parent / "frontend",
        check=True,
        capture_output=True,
    )
    env = dict(
        os.environ,
        DATABASE_URL=state["url"],
        STALLSCOPE_DATA_DIR=str(tmp),
        STALLSCOPE_PORT=str(port),
        STALLSCOPE_FRONTEND_DIST=str(dist),
    )
    log = open(tmp / "serve.log", "wb")  # noqa: SIM115 - lives as long as the server
    server = subprocess.Popen(
        [sys.executable, "-m", "stallscope", "serve", "--no-worker", "--port", str(port)],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(f"{base}/api/health", timeout=2).read()
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise SystemExit(f"the console did not start; see {tmp / 'serve.log'}") from None
                time.sleep(0.5)
        out = tmp / "browser.json"
        bench_env = dict(
            os.environ,
            STALLSCOPE_URL=base,
            BENCH_INCIDENT=str(state["incident"]),
            BENCH_CPU=",".join(map(str, state["cpu"])),
            BENCH_SCHED=",".join(map(str, state["sched"])),
            BENCH_OUT=str(out),
            BENCH_REPEAT=str(repeat),
        )
        subprocess.run(
            ["npx", "playwright", "test", "--config", "playwright.bench.config.ts"],
            cwd=BENCH.parent / "frontend",
            env=bench_env,
            check=True,
        )
        figures: dict[str, list[float]] = json.loads(out.read_text())
        return figures
    finally:
        server.terminate()
        server.wait(30)
        log.close()


def settle(state: dict[str, Any]) -> None:
    """Do now what PostgreSQL would do in the minutes after a bulk load (autovacuum's first pass over
    the new rows, writing them out), and say how long that took, before timing queries.

    Measured while autovacuum reached the new tables, some requests took up to three times as long
    (a 1 s thread-state breakdown 555 ms against 157 ms once settled) as it shared the machine's two
    cores: the figures would time the maintenance, not the views.
    """
    from stallscope.db import raw_connection

    started = time.perf_counter()
    with raw_connection(state["url"], autocommit=True) as conn:
        conn.execute("VACUUM (ANALYZE)")
        conn.execute("CHECKPOINT")
    print(f"vacuumed and checkpointed in {time.perf_counter() - started:.0f} s", flush=True)


def database_of(state: dict[str, Any]) -> str:
    """`PostgreSQL 17.2` or `PostgreSQL 17.2 + TimescaleDB 2.x`: what the figures were measured on."""
    from sqlalchemy import text

    from stallscope.db import get_session_factory

    with get_session_factory(state["url"])() as session:
        server = session.execute(text("SHOW server_version")).scalar_one()
        timescaledb = session.execute(
            text("SELECT extversion FROM pg_extension WHERE extname = 'timescaledb'")
        ).scalar_one_or_none()
    name = f"PostgreSQL {str(server).split()[0]}"
    return f"{name} + TimescaleDB {timescaledb}" if timescaledb else f"{name} (no TimescaleDB)"


def counts_of(state: dict[str, Any]) -> dict[str, int]:
    from sqlalchemy import text

    from stallscope.db import get_session_factory

    with get_session_factory(state["url"])() as session:
        samples = session.execute(text("SELECT coalesce(sum(sample_count), 0) FROM captures")).scalar_one()
        events = session.execute(text("SELECT count(*) FROM events")).scalar_one()
    return {"samples": int(samples), "events": int(events)}


if __name__ == "__main__":
    main()
