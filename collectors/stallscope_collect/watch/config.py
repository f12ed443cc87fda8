"""What a watch runs with, decided once by the command: every round's settings."""

from __future__ import annotations

from dataclasses import dataclass

from stallscope_collect.perf.probe import PerfProber
from stallscope_collect.perf.tool import Perf
from stallscope_collect.upload.sender import UploadSettings
from stallscope_collect.upload.spool import Spool


@dataclass
class RoundSetup:
    """What every round records with: set once for the whole watch."""

    host: str
    perf: Perf | None
    cpu_seconds: float
    sample_hz: float
    min_free: int


@dataclass
class WatchConfig:
    """Everything the rounds need, decided once by the command."""

    setup: RoundSetup
    root: str
    interval_s: float
    windows: dict[str, float]
    """The perf modes perf may run here, with their windows in seconds."""
    cpu_hz: int
    rounds: int | None
    keep_local: int
    spool: Spool
    server: str | None
    settings: UploadSettings | None
    prober: PerfProber | None
    probe_cmds: list[list[str]]
    """The probes the first plan ran, listed in the first round's commands.txt."""
