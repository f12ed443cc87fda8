"""The rounds on disk: a directory per round under the output root, pruned once they are sent."""

from __future__ import annotations

import os
import re
import shutil
import time

from stallscope_collect.files import atomic_write, data_home
from stallscope_collect.upload.spool import Spool

ROUND_NAME = re.compile(r"^\d{8}T\d{6}Z(?:-\d+)?$")
SPOOLED_MARK = ".spooled"
"""Written in a round's directory once each of its files is in the spool. The spool keeps its own
compressed copy, so from then on the directory is only needed for as long as the user wants it."""


def output_root(output: str | None, host: str) -> str:
    """`--output`, or `<data home>/watch/<host>`: the directory that holds one directory per round."""
    if output:
        return os.path.abspath(os.path.expanduser(output))
    return os.path.join(data_home(), "watch", re.sub(r"[^\w.-]", "_", host))


def round_stamp(wall: float) -> str:
    return time.strftime("%Y%m%dT%H%M%SZ", time.gmtime(wall))


def new_round_dir(root: str, wall: float) -> str:
    """`<root>/<UTC time>`, made here; `-2`, `-3`… when two rounds start within one second."""
    base = os.path.join(root, round_stamp(wall))
    path, n = base, 1
    while True:
        try:
            os.makedirs(path)
            return path
        except FileExistsError:
            n += 1
            path = f"{base}-{n}"


def mark_spooled(outdir: str) -> None:
    atomic_write(os.path.join(outdir, SPOOLED_MARK), b"")


def prune_rounds(root: str, keep: int, spool: Spool) -> list[str]:
    """Remove all but the newest `keep` round directories, sparing any whose files are not all
    sent: not all spooled (no mark), or still waiting in the spool. Returns what was removed.

    Only directories named like a round and holding its `commands.txt` are candidates, so a
    `--output` shared with other files loses nothing else.
    """
    try:
        names = sorted(n for n in os.listdir(root) if ROUND_NAME.match(n))
    except OSError:
        return []
    rounds = [n for n in names if os.path.isfile(os.path.join(root, n, "commands.txt"))]
    older = rounds[: len(rounds) - keep] if keep > 0 else rounds
    if not older:
        return []
    waiting = {os.path.dirname(str(e.info.get("source", ""))) for e in spool.entries()}
    removed = []
    for name in older:
        path = os.path.join(root, name)
        if path in waiting or not os.path.exists(os.path.join(path, SPOOLED_MARK)):
            continue
        shutil.rmtree(path, ignore_errors=True)
        removed.append(path)
    return removed
