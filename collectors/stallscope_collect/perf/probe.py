"""Probes: perf command lines tried against `true`, before a record, to learn what perf and this
kernel accept."""

from __future__ import annotations

import os
import re
import subprocess
from typing import Sequence

from stallscope_collect.files import run_text
from stallscope_collect.formatting import tail_lines
from stallscope_collect.perf.tool import Perf


class PerfProber:
    """Tries perf command lines against `true` to learn what this kernel and perf accept."""

    def __init__(self, perf: Perf, workdir: str) -> None:
        self.perf = perf
        self.workdir = workdir
        self.commands: list[list[str]] = []

    def record_ok(self, args: Sequence[str], clock: str | None) -> tuple[bool, str]:
        cmd = [self.perf.path, "record", "-q"]
        if clock:
            cmd += ["-k", clock]
        cmd += [*list(args), "-o", os.path.join(self.workdir, "probe.data"), "--", "true"]
        self.commands.append(cmd)
        try:
            proc = subprocess.run(
                cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=60
            )
        except subprocess.TimeoutExpired:
            return False, "timed out"
        return proc.returncode == 0, tail_lines(proc.stderr.decode("utf-8", "replace"))

    def best_clock(self, args: Sequence[str]) -> tuple[str | None, str]:
        """('monotonic'|'default', "") when perf accepts `args`, else (None, perf's message)."""
        ok, message = self.record_ok(args, "CLOCK_MONOTONIC")
        if ok:
            return "monotonic", ""
        ok, plain_message = self.record_ok(args, None)
        if ok:
            return "default", ""
        return None, plain_message or message

    def tracepoint_exists(self, name: str) -> bool:
        system, _, event = name.partition(":")
        for base in ("/sys/kernel/tracing", "/sys/kernel/debug/tracing"):
            if os.path.isdir(os.path.join(base, "events", system)):
                return os.path.isdir(os.path.join(base, "events", system, event))
        cmd = [self.perf.path, "list", name]
        self.commands.append(cmd)
        try:
            return name in run_text(cmd, timeout=60)
        except (OSError, RuntimeError, subprocess.TimeoutExpired):
            return False

    def syscall_id_filter(self, names: Sequence[str]) -> tuple[str | None, str]:
        """perf trace's own kernel filter for these syscall names (`id == 202 || …`), from -v."""
        cmd = [self.perf.path, "trace", "-v", "-e", ",".join(names), "--", "true"]
        self.commands.append(cmd)
        try:
            proc = subprocess.run(
                cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=60
            )
        except subprocess.TimeoutExpired:
            return None, "perf trace timed out"
        text = proc.stdout.decode("utf-8", "replace")
        m = re.search(r"event qualifier tracepoint filter: (.+)", text)
        if proc.returncode == 0 and m and re.fullmatch(r"[\sid=|0-9!&()]+", m.group(1).strip()):
            return m.group(1).strip(), ""
        bad = re.search(r"(Invalid syscall[^\n]*|Error:[^\n]*)", text)
        return None, bad.group(1).strip() if bad else tail_lines(text)
