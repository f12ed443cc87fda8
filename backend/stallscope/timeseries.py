"""The two storage back ends of the samples table, and what a parse refreshes on each.

With TimescaleDB the migrations made `samples` a hypertable and `sample_rollup_1s` a per-second
rollup of each capture's samples (by event, thread and stack), which wide time ranges of a flame
graph read instead of raw samples; without it neither exists and the same queries read the plain
table. Callers ask `has_timescaledb` once and pick a relation name; the SQL they run is otherwise
identical (`date_bin` exists in both).

The rollup used to be a continuous aggregate. Its refresh works by time window, not by capture, so
every parse re-materialised every capture sharing its seconds: captures of one incident's hosts are
recorded together, and perf's boot-relative times pile up in the same hours of 1970. Measured on
the deep-compile capture (116,528 samples, 66k stacks): 0.96 s alone, 9.0 s for the fourth of four
captures sharing its minute. Built from the capture's own samples in the parse's transaction it
costs about 0.25 s whatever shares its seconds, and needs no refresh policy, retries or marks
written after the fact.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import psycopg
from sqlalchemy import text
from sqlalchemy.orm import Session

from stallscope.captures.parse_steps import Committed, Loaded, ParseStep

Conn = psycopg.Connection[tuple[Any, ...]]

ROLLUP_VIEW = "sample_rollup_1s"
"""The per-second rollup's table (TimescaleDB only); the name is kept from its continuous-aggregate days."""
ROLLUP_BUCKET = timedelta(seconds=1)
BUILD_WORK_MEM = "256MB"
"""As the timeline's rollups: the capture's samples were just written, so the planner has no
statistics for them, guesses one group, and with the default 4 MB sorts them on disk (1.16 s
against 0.25 s for the deep-compile capture)."""

_cache: dict[str, bool] = {}


def has_timescaledb_session(session: Session) -> bool:
    url = str(session.get_bind().engine.url)
    if url not in _cache:
        row = session.execute(text("SELECT 1 FROM pg_extension WHERE extname = 'timescaledb'")).first()
        _cache[url] = row is not None
    return _cache[url]


def has_timescaledb(conn: Conn) -> bool:
    row = conn.execute("SELECT 1 FROM pg_extension WHERE extname = 'timescaledb'").fetchone()
    return row is not None


STORE_ROLLUP = f"""
    INSERT INTO {ROLLUP_VIEW} (capture_id, bucket, event, pid, tid, comm, stack_id, weight, samples)
    SELECT capture_id, time_bucket(%(bucket)s, ts), event, pid, tid, comm, stack_id, sum(weight), count(*)
    FROM samples WHERE capture_id = %(id)s
    GROUP BY capture_id, 2, event, pid, tid, comm, stack_id
"""
MARK_COMPLETE = """
    INSERT INTO sample_rollup_captures (capture_id, parsed_at)
    SELECT id, parsed_at FROM captures WHERE id = %(id)s AND parsed_at IS NOT NULL
    ON CONFLICT (capture_id) DO UPDATE SET parsed_at = excluded.parsed_at, refreshed_at = now()
"""


def store_sample_rollup(conn: Conn, capture_id: int) -> None:
    """Replace the capture's per-second rollup with one of its current samples, in the parse's
    transaction, and mark it complete for the parse (`captures.parsed_at`, already set).

    The mark is what a flame graph checks before reading the rollup (`flame/repository.py`): written
    with the rows, it holds exactly when they do. Without TimescaleDB there is no rollup.
    """
    if not has_timescaledb(conn):
        return
    discard_sample_rollup(conn, capture_id)
    conn.execute(f"SET LOCAL work_mem = '{BUILD_WORK_MEM}'")  # until the parse's transaction ends
    conn.execute(STORE_ROLLUP, {"id": capture_id, "bucket": ROLLUP_BUCKET})
    conn.execute(MARK_COMPLETE, {"id": capture_id})


def discard_sample_rollup(conn: Conn, capture_id: int) -> None:
    """Remove the capture's rollup rows (a failed re-parse must not leave them behind)."""
    if has_timescaledb(conn):
        conn.execute(f"DELETE FROM {ROLLUP_VIEW} WHERE capture_id = %s", (capture_id,))


NEW_CAPTURE_COLUMNS = {
    "samples": "capture_id, event, ts",
    "capture_stack_totals": "capture_id, event",
    "sample_slices": "capture_id, event, slice",
    ROLLUP_VIEW: "capture_id, event, bucket",
}
"""What a new capture changes in each table's statistics: which captures and events it holds and
when. The other columns' statistics (threads, stacks) hold whatever capture was added; autovacuum
renews them, as a column list leaves its count of changed rows as it was."""
SAMPLE_CHUNKS = """
    SELECT format('%%I.%%I', c.chunk_schema, c.chunk_name) FROM timescaledb_information.chunks c,
        (SELECT min(ts) AS lo, max(ts) AS hi FROM samples WHERE capture_id = %(id)s) AS extent
    WHERE c.hypertable_schema = current_schema() AND c.hypertable_name = 'samples'
      AND c.range_start <= extent.hi AND c.range_end > extent.lo
    ORDER BY 1
"""


def analyze_parsed(conn: Conn, capture_id: int) -> None:
    """Fresh planner statistics for what the parse of `capture_id` wrote (autocommit connection).

    Right after a bulk load the planner knows nothing of the new capture: it would guess one row and
    sort a million samples on disk instead of hashing them (1.0 s against 0.26 s for 1M samples;
    the rollup's flame query 167 ms against 34 ms, 156k rows; the heatmap's slices 0.40 s against
    0.13 s). So the tables it added rows to are analysed, but only in the columns a new capture
    changes, at about half the cost of every column; on TimescaleDB only the chunks holding its
    samples, where ANALYZE of the hypertable samples every chunk again and the whole once more.
    """
    tables = dict(NEW_CAPTURE_COLUMNS)
    if has_timescaledb(conn):
        columns = tables.pop("samples")
        chunks = [row[0] for row in conn.execute(SAMPLE_CHUNKS, {"id": capture_id}).fetchall()]
        tables.update((chunk, columns) for chunk in chunks)
    else:
        tables.pop(ROLLUP_VIEW)
    conn.execute("ANALYZE " + ", ".join(f"{table} ({columns})" for table, columns in tables.items()))


def _store_rollup(loaded: Loaded) -> None:
    store_sample_rollup(loaded.conn, loaded.capture_id)


def _analyze(committed: Committed) -> None:
    analyze_parsed(committed.aux, committed.capture_id)


ROLLUP_STEP = ParseStep(
    name="sample rollup",
    tables=("sample_rollup_captures",),
    in_transaction=_store_rollup,  # after the capture's row: its mark is the parse's parsed_at
    discard=discard_sample_rollup,  # the rollup's rows (`tables` has its marks)
)
"""Also for a blank upload (`empty`): its mark says the rollup is complete, with no rows."""
STATISTICS_STEP = ParseStep(name="planner statistics", after_commit=_analyze)
"""On the job's autocommit connection, before the steps that query the new rows after the commit."""
