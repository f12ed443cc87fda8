"""One row per running parse worker, touched every few seconds: how `/api/health` knows one is alive."""

from __future__ import annotations

from sqlalchemy import Column, DateTime, Integer, Table, Text

from stallscope.models.base import Base

worker_heartbeats = Table(
    "worker_heartbeats",
    Base.metadata,
    Column("name", Text, primary_key=True),
    Column("hostname", Text, nullable=False),
    Column("pid", Integer, nullable=False),
    Column("concurrency", Integer, nullable=False),
    Column("started_at", DateTime(timezone=True), nullable=False),
    Column("seen_at", DateTime(timezone=True), nullable=False),
)
