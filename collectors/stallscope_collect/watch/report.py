"""The one line each round logs: what it recorded, how large, where it went, what it cost."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from stallscope_collect.files import size_or_zero
from stallscope_collect.formatting import fmt_bytes, fmt_seconds
from stallscope_collect.record.outputs import Output
from stallscope_collect.watch.config import WatchConfig


@dataclass
class RoundReport:
    """What one round did, for its log line."""

    number: int
    started_wall: float
    outputs: list[Output] = field(default_factory=list)
    left_out: list[str] = field(default_factory=list)
    """Parts this round did without, each with its reason ("offcpu left out: …")."""
    snapshot: str = ""
    cut_short: bool = False
    aborted: bool = False
    """Stopped by a second signal: perf stopped, nothing converted or sent."""
    skipped_slots: int = 0
    delivery: str = ""
    own_cpu_s: float = 0.0
    elapsed_s: float = 0.0


def round_line(report: RoundReport) -> str:
    when = time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(report.started_wall))
    parts = []
    for out in report.outputs:
        if out.kind == "snapshot":
            continue
        detail = f" ({out.summary})" if out.summary else ""
        parts.append(f"{out.kind} {fmt_bytes(size_or_zero(out.path))}{detail}")
    recorded = ", ".join(parts) or "nothing recorded"
    line = f"round {report.number} at {when} UTC"
    if report.skipped_slots:
        line += f" ({report.skipped_slots} slot(s) skipped: the round before overran the interval)"
    line += f": {recorded}"
    if report.snapshot:
        line += f"; {report.snapshot}"
    for reason in report.left_out:
        line += f"; {reason}"
    if report.cut_short:
        line += "; cut short by a stop signal"
    if report.delivery:
        line += f"; {report.delivery}"
    line += f"; own CPU {report.own_cpu_s:.2f} s in {report.elapsed_s:.1f} s"
    return line


def delivery_text(sent_now: int, spooled: int, sent_earlier: int, waiting: int, failed: int) -> str:
    """How the upload went, in a few words."""
    text = f"uploaded {sent_now} of {spooled}"
    if sent_earlier:
        text += f" and {sent_earlier} from earlier rounds"
    if failed:
        text += f", {failed} could not be spooled"
    if waiting:
        text += f", {waiting} wait in the spool"
    return text


def describe_watch(cfg: WatchConfig) -> str:
    """The line a watch starts with: what each round records, how often, and where it goes."""
    parts = []
    if "cpu" in cfg.windows:
        parts.append(f"{fmt_seconds(cfg.windows['cpu'])} s of CPU samples at {cfg.cpu_hz} Hz")
    if "offcpu" in cfg.windows:
        parts.append(f"{fmt_seconds(cfg.windows['offcpu'])} s of scheduler events")
    parts.append(f"/proc at {fmt_seconds(cfg.setup.sample_hz)} Hz for {fmt_seconds(cfg.setup.cpu_seconds)} s")
    where = f"sent to {cfg.server}'s watch stream" if cfg.server else f"kept in {cfg.root}"
    rounds = f"{cfg.rounds} round(s)" if cfg.rounds else "until stopped"
    return (
        f"watching {cfg.setup.host} every {fmt_seconds(cfg.interval_s)} s, {rounds}: "
        f"{', '.join(parts)}, system-wide; {where}"
    )
