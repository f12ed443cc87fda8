"""The Prometheus text exposition (format 0.0.4) of the console's own state."""

from __future__ import annotations

from collections.abc import Iterable

from stallscope.captures.backpressure import UploadCounters
from stallscope.exposition.queue_state import QueueState

MEDIA_TYPE = "text/plain; version=0.0.4; charset=utf-8"


def metric(name: str, kind: str, about: str, samples: Iterable[tuple[str, float]]) -> list[str]:
    """One metric family: `samples` are (labels as `a="b"`, or "", value)."""
    lines = [f"# HELP {name} {about}", f"# TYPE {name} {kind}"]
    lines += [
        f"{name}{{{labels}}} {_number(value)}" if labels else f"{name} {_number(value)}"
        for labels, value in samples
    ]
    return lines


def label(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


def queue_lines(state: QueueState) -> list[str]:
    lines = metric(
        "stallscope_captures_waiting",
        "gauge",
        "Captures queued for a parse or being parsed.",
        [('state="queued"', state.queued), ('state="parsing"', state.parsing)],
    )
    lines += metric(
        "stallscope_parse_lag_seconds",
        "gauge",
        "How long the capture queued longest has waited for a worker (0 when none waits).",
        [("", state.oldest_queued_s or 0.0)],
    )
    if state.broker_messages is not None:
        lines += metric(
            "stallscope_parse_queue_messages",
            "gauge",
            "Parse messages waiting in the broker.",
            [("", state.broker_messages)],
        )
    return lines


def upload_lines(counters: UploadCounters) -> list[str]:
    lines = metric(
        "stallscope_uploads_in_flight",
        "gauge",
        "Uploads this API process is taking now.",
        [("", counters.in_flight)],
    )
    lines += metric(
        "stallscope_uploads_total",
        "counter",
        "Uploads this API process admitted or refused since it started, by outcome.",
        [
            ('outcome="admitted"', counters.accepted),
            ('outcome="refused_busy"', counters.refused_busy),
            ('outcome="refused_rate"', counters.refused_rate),
        ],
    )
    return lines


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:.6g}"
