"""Tracepoint filters on thread ids, and the syscall names --syscalls takes."""

from __future__ import annotations

import argparse
import re
from typing import Sequence

# Tracepoint filters go through one ioctl that takes at most a page; keep each well under it so
# the whole query string (the commands travel in `meta`) stays below common 8 KiB URL limits.
MAX_FILTER_CHARS = 1200


def tid_ranges(tids: Sequence[int]) -> list[tuple[int, int]]:
    """Sorted runs of consecutive ids: [1, 2, 3, 7] -> [(1, 3), (7, 7)]."""
    ranges: list[tuple[int, int]] = []
    for tid in sorted(set(tids)):
        if ranges and tid == ranges[-1][1] + 1:
            ranges[-1] = (ranges[-1][0], tid)
        else:
            ranges.append((tid, tid))
    return ranges


def tid_filter(fields: Sequence[str], tids: Sequence[int]) -> str:
    """A tracepoint filter matching any of `tids` in any of `fields`."""
    terms = []
    for name in fields:
        for lo, hi in tid_ranges(tids):
            if lo == hi:
                terms.append(f"{name} == {lo}")
            else:
                terms.append(f"({name} >= {lo} && {name} <= {hi})")
    return " || ".join(terms)


_SYSCALL_NAME = re.compile(r"^[a-z0-9_*?]+$")


def parse_syscall_list(text: str) -> list[str]:
    names = [s.strip() for s in text.split(",") if s.strip()]
    if not names:
        raise argparse.ArgumentTypeError("give syscall names, e.g. --syscalls futex,fsync,mmap")
    for name in names:
        if not _SYSCALL_NAME.match(name):
            raise argparse.ArgumentTypeError(f"not a syscall name: {name!r}")
    return names
