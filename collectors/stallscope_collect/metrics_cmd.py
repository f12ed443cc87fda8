"""`--metrics-cmd`: an application's own metrics, from a command run every interval."""

from __future__ import annotations

import json
import math
import re
import subprocess
import threading
import time
from typing import IO, Any, Dict, Sequence, Tuple

from stallscope_collect.formatting import describe
from stallscope_collect.proc_format import stallscope_proc_header, stallscope_record

_METRIC_LINE = re.compile(r"^([A-Za-z_:][\w:./-]*)(?:\{(.*)\})?\s+(\S+)(?:\s+-?\d+)?\s*$")
_METRIC_LABEL = re.compile(r'([A-Za-z_]\w*)\s*=\s*"((?:[^"\\]|\\.)*)"')

Metric = Tuple[str, Dict[str, str], float]


def _number(value: Any) -> float | None:
    if isinstance(value, bool):
        return float(value)
    if isinstance(value, (int, float)):
        number = float(value)
    elif isinstance(value, str):
        try:
            number = float(value)
        except ValueError:
            return None
    else:
        return None
    if math.isnan(number) or math.isinf(number):
        return None
    return int(number) if number.is_integer() and abs(number) < 2**53 else number


def _flatten(prefix: str, obj: Any, out: list[Metric]) -> None:
    if isinstance(obj, dict):
        for key, value in obj.items():
            _flatten(prefix + "." + str(key) if prefix else str(key), value, out)
        return
    number = _number(obj)
    if number is not None and prefix:
        out.append((prefix, {}, number))


def parse_metric_line(line: str) -> list[Metric]:
    """One line of --metrics-cmd output: a JSON object, or `name value`, or `name{k="v"} value`."""
    line = line.strip()
    if not line or line.startswith("#"):
        return []
    if line.startswith("{"):
        obj = json.loads(line)
        if not isinstance(obj, dict):
            return []
        if "name" in obj and "value" in obj:
            value = _number(obj["value"])
            labels = obj.get("labels") or {}
            if value is None or not isinstance(labels, dict):
                return []
            return [(str(obj["name"]), {str(k): str(v) for k, v in labels.items()}, value)]
        out: list[Metric] = []
        _flatten("", obj, out)
        return out
    m = _METRIC_LINE.match(line)
    if not m:
        raise ValueError('not `name value`, `name{label="v"} value` or a JSON object')
    value = _number(m.group(3))
    if value is None:
        return []
    labels = {
        k: v.replace('\\"', '"').replace("\\\\", "\\") for k, v in _METRIC_LABEL.findall(m.group(2) or "")
    }
    return [(m.group(1), labels, value)]


class MetricsRunner(threading.Thread):
    """Runs a command every interval and keeps what it prints as stallscope-proc records (t = now)."""

    def __init__(self, path: str, host: str, pids: Sequence[int], command: str, interval: float) -> None:
        super().__init__(name="metrics-cmd", daemon=True)
        self.path = path
        self.host = host
        self.pids = list(pids)
        self.command = command
        self.interval = interval
        self.stop_event = threading.Event()
        self.problems: list[str] = []
        self.runs = 0
        self.records = 0

    def stop(self) -> None:
        self.stop_event.set()
        self.join(timeout=self.interval + 15)

    def _problem(self, text: str) -> None:
        if len(self.problems) < 10 and text not in self.problems:
            self.problems.append(text)

    def run(self) -> None:
        try:
            with open(self.path, "w", encoding="utf-8") as out:
                out.write(stallscope_proc_header(self.host, round(self.interval * 1000), self.pids) + "\n")
                next_at = time.monotonic()
                while not self.stop_event.is_set():
                    self._once(out)
                    out.flush()
                    next_at += self.interval
                    now = time.monotonic()
                    if next_at < now:
                        next_at = now
                    self.stop_event.wait(next_at - now)
        except Exception as exc:
            self._problem(describe(exc))

    def _once(self, out: IO[str]) -> None:
        self.runs += 1
        try:
            proc = subprocess.run(
                self.command,
                shell=True,
                stdin=subprocess.DEVNULL,
                capture_output=True,
                timeout=max(10.0, self.interval * 5),
            )
        except subprocess.TimeoutExpired:
            self._problem("the metrics command timed out")
            return
        t = time.time_ns()
        if proc.returncode != 0:
            self._problem(
                f"the metrics command exited with {proc.returncode}: "
                + proc.stderr.decode("utf-8", "replace").strip()[:200]
            )
        for number, line in enumerate(proc.stdout.decode("utf-8", "replace").splitlines(), 1):
            try:
                metrics = parse_metric_line(line)
            except ValueError as exc:
                self._problem(f"line {number} of its output: {exc}: {line[:120]!r}")
                continue
            for name, labels, value in metrics:
                out.write(stallscope_record(t, name, labels, value) + "\n")
                self.records += 1
