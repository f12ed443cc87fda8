"""Per-capture rollups the timeline reads instead of raw rows, rebuilt with every parse.

One row per (capture, source, key, level, bucket). `res_us` is the level's bucket width in µs (1 ms
to 100 s; only levels that shrink the data at least twofold are kept), or 0 for rows that are not
buckets: whole-capture totals, off-CPU step rows and the manifest of kept levels (key `built`, written
last, says the rollups are complete).

| source        | key         | name | pid | n           | total                   | min / max             |
|---------------|-------------|------|-----|-------------|-------------------------|-----------------------|
| cpu           | event       | comm | pid | samples     | weight                  |                       |
| event         | kind        | name |     | events      | ns of the closed ones   | - / longest ns        |
| metric        | series id   |      |     | points      | sum of values           | min / max             |
| off-cpu       | state       |      |     | intervals   | ns of the closed ones   | unclosed / longest ns |
| off-cpu-steps | state       |      |     | threads now | thread-µs before `ts`   | (`ts` is an edge)     |
| manifest      | source name |      |     | level (µs)  | rows at that level      |                       |
"""

from __future__ import annotations

from sqlalchemy import BigInteger, Column, DateTime, Float, ForeignKey, Index, Integer, Table, Text, text

from stallscope.models.base import Base

SUMMARY = "res_us = 0 AND source <> 'off-cpu-steps'"
"""The rows every request reads (totals, manifest): a few per capture, in their own small index."""

timeline_rollups = Table(
    "timeline_rollups",
    Base.metadata,
    Column("capture_id", Integer, ForeignKey("captures.id", ondelete="CASCADE"), nullable=False),
    Column("source", Text, nullable=False),
    Column("key", Text, nullable=False),
    Column("res_us", BigInteger, nullable=False),
    Column("ts", DateTime(timezone=True), nullable=False),
    Column("name", Text, nullable=False, server_default=""),
    Column("pid", Integer),
    Column("n", BigInteger, nullable=False),
    Column("total", Float(precision=53), nullable=False, server_default="0"),
    Column("min_value", Float(precision=53)),
    Column("max_value", Float(precision=53)),
    Index(
        "ix_timeline_rollups_range",
        "capture_id",
        "res_us",
        "ts",
        postgresql_using="brin",
        postgresql_with={"pages_per_range": 16},
    ),
    Index(
        "ix_timeline_rollups_summary",
        "capture_id",
        "source",
        postgresql_where=text(f"{SUMMARY}"),
    ),
    Index(
        "ix_timeline_rollups_steps",
        "capture_id",
        "key",
        "ts",
        postgresql_where=text("source = 'off-cpu-steps'"),
    ),
)
