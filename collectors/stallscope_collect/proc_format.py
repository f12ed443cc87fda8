"""The `stallscope-proc` JSON-lines format the sampler and --metrics-cmd write."""

from __future__ import annotations

import json
from typing import Sequence


def stallscope_proc_header(host: str, interval_ms: int, pids: Sequence[int]) -> str:
    return json.dumps(
        {
            "stallscope": "proc-sampler",
            "version": 1,
            "host": host,
            "interval_ms": interval_ms,
            "target_pids": list(pids),
        }
    )


def stallscope_record(t: int, name: str, labels: dict[str, str], value: float) -> str:
    return json.dumps({"t": t, "name": name, "labels": labels, "value": value})


class RecordEncoder:
    """stallscope_record(), byte for byte, without a json.dumps per record.

    The sampler writes ~100 records per tick, mostly the same series every time: the part of a
    line between the time and the value is encoded once per series and kept.
    """

    CACHE_LIMIT = 50_000

    def __init__(self) -> None:
        self._middles: dict[tuple[str, tuple[tuple[str, str], ...]], str] = {}

    def middle(self, name: str, labels: dict[str, str]) -> str:
        key = (name, tuple(labels.items()))
        found = self._middles.get(key)
        if found is None:
            if len(self._middles) > self.CACHE_LIMIT:  # thread churn on a busy host
                self._middles.clear()
            found = self._middles[key] = (
                f', "name": {json.dumps(name)}, "labels": {json.dumps(labels)}, "value": '
            )
        return found

    def __call__(self, t: int, name: str, labels: dict[str, str], value: float) -> str:
        # int.__repr__ and float.__repr__ are what json.dumps writes for finite numbers.
        return f'{{"t": {t}{self.middle(name, labels)}{value!r}}}'
