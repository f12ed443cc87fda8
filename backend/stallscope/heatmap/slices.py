"""Count a capture's samples per event and 10 ms slice at parse time: what heatmaps of whole captures read.

A heatmap cell is a second (or merged seconds) and a row of it. At 10, 20, 50 or 100 rows (every
choice the UI offers; any count dividing 100) a cell is a whole number of 10 ms slices, so summing
the slices inside a range gives exactly what counting its samples would; only the partial slices at
the range's ends read raw samples (`repository.sliced_sample_cells`). Ten million samples make about
half a million slices, read in a fraction of the time the samples took.

Built from the stored samples, in the parse's transaction (as the timeline's rollups are), with the
time arithmetic every sub-second view uses (`kit/sql_time.py`): slices and samples always agree.
"""

from __future__ import annotations

import logging
import time
from datetime import UTC, datetime, timedelta
from typing import Any

import psycopg

from stallscope.analysis.heatmap import SLICE_US, US_PER_SECOND
from stallscope.kit.sql_time import offset_us_of, second_of

log = logging.getLogger(__name__)

Conn = psycopg.Connection[tuple[Any, ...]]

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
SLICES_PER_SECOND = US_PER_SECOND // SLICE_US
BUILD_WORK_MEM = "256MB"

_OFFSET_US = offset_us_of("s").replace("%", "%%")  # a modulo, not a placeholder, for psycopg
STORE = f"""
    INSERT INTO sample_slices (capture_id, event, slice, samples, weight)
    SELECT %(id)s, event, {second_of("s")} * {SLICES_PER_SECOND} + {_OFFSET_US} / {SLICE_US}, n, w
    FROM (
        SELECT event, date_bin(%(width)s, ts, %(epoch)s) AS s, count(*) AS n, sum(weight) AS w
        FROM samples WHERE capture_id = %(id)s GROUP BY 1, 2
    ) AS slices
"""


def store_sample_slices(conn: Conn, capture_id: int) -> None:
    """Replace the capture's slices with counts of its current samples (in the caller's transaction)."""
    started = time.monotonic()
    conn.execute("DELETE FROM sample_slices WHERE capture_id = %s", (capture_id,))
    # Statistics know nothing of the samples just written: enough memory to hash their slices
    # rather than sort them on disk. SET LOCAL ends with the parse's transaction.
    conn.execute(f"SET LOCAL work_mem = '{BUILD_WORK_MEM}'")
    cursor = conn.execute(
        STORE, {"id": capture_id, "width": timedelta(microseconds=SLICE_US), "epoch": EPOCH}
    )
    log.info(
        "heatmap slices of capture %s: %d in %.2f s", capture_id, cursor.rowcount, time.monotonic() - started
    )
