"""The rounds: one per slot of the interval until --rounds or a stop signal, each recorded, kept or
sent to the watch stream, pruned, and logged in one line."""

from __future__ import annotations

import signal
import time

from stallscope_collect.console import Console
from stallscope_collect.exit_status import EXIT_ERROR, EXIT_OK, EXIT_PENDING
from stallscope_collect.record.perf_processes import StopFlag
from stallscope_collect.watch.config import WatchConfig
from stallscope_collect.watch.report import round_line
from stallscope_collect.watch.round import run_round
from stallscope_collect.watch.schedule import Schedule
from stallscope_collect.watch.snapshot_change import SnapshotTracker
from stallscope_collect.watch.stream import waiting_in_stream


class WatchStop(StopFlag):
    """The first SIGTERM/SIGINT ends the watch once the current round (cut short) is delivered; a
    second aborts. Nothing is printed from the handler: it could interrupt a line being written."""

    def __init__(self, console: Console) -> None:
        super().__init__(console)
        self.signal_name = ""

    def __enter__(self) -> WatchStop:
        super().__enter__()
        return self

    def _handle(self, signum: int, frame: object) -> None:
        if self.event.is_set():
            raise KeyboardInterrupt
        self.signal_name = signal.Signals(signum).name
        self.event.set()


def run_watch(cfg: WatchConfig, console: Console) -> int:
    """Run rounds on the interval's grid until --rounds or a stop signal; the exit status."""
    quiet = Console(quiet=True, stream=console.stream)
    tracker = SnapshotTracker()
    schedule = Schedule(cfg.interval_s, time.monotonic())
    slot = number = skipped = 0
    with WatchStop(console) as stop:
        while not stop.event.is_set():
            delay = schedule.slot_time(slot) - time.monotonic()
            if delay > 0 and stop.event.wait(delay):
                break
            number += 1
            report = run_round(cfg, number, skipped, stop, console, quiet, tracker)
            console.info(round_line(report))
            if report.aborted:
                return EXIT_ERROR
            if cfg.rounds is not None and number >= cfg.rounds:
                break
            following = schedule.next_slot(slot, time.monotonic())
            skipped, slot = following - slot - 1, following
        stopped_by = stop.signal_name if stop.event.is_set() else ""
    waiting = waiting_in_stream(cfg.spool, cfg.server, cfg.setup.host)
    if stopped_by:
        where = f"; {waiting} capture(s) wait in {cfg.spool.path} for the next start or `flush`"
        console.info(f"stopped by {stopped_by} after {number} round(s)" + (where if waiting else ""))
        return EXIT_OK
    if waiting:
        console.warn(
            f"{waiting} capture(s) wait in {cfg.spool.path}; "
            "the next watch or `stallscope-collect flush` sends them"
        )
        return EXIT_PENDING
    return EXIT_OK
