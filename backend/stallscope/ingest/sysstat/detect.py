"""Recognise sysstat and vmstat text by its banner or header and the column-header line after it."""

from __future__ import annotations

import re

BANNER = re.compile(r"\S+ \S+ \(\S*\)\s+\S+\s+_\S+_\s+\(\d+ CPU\)\s*\Z")
"""`Linux 6.18.4 (host) \\t11/22/2026 \\t_x86_64_\\t(2 CPU)`, the first line every sysstat tool prints."""

_TIMED = re.compile(r"\d\d?:\d\d:\d\d(?:\s+[AP]M)?\s+\S")
_IOSTAT_STAMP = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d|\S+\s+\d\d?:\d\d:\d\d(?:\s+[AP]M)?\s*\Z")
_VMSTAT_GROUPS = re.compile(r"-*procs-*\s+-+memory-+")
_VMSTAT_COLUMNS = re.compile(r"\s*r\s+b\s+swpd\s+free\s")
_SNIFF_LINES = 20


def detect(head: bytes) -> bool:
    """True for a sysstat banner followed by a table, iostat report or nothing yet; or vmstat's header."""
    lines = [line for line in _text_lines(head) if line.strip()]
    if not lines:
        return False
    if BANNER.match(lines[0]):
        return len(lines) == 1 or _sysstat_body(lines[1])
    return len(lines) > 1 and bool(_VMSTAT_GROUPS.match(lines[0]) and _VMSTAT_COLUMNS.match(lines[1]))


def _sysstat_body(line: str) -> bool:
    return line.startswith(("avg-cpu:", "Device")) or bool(_TIMED.match(line) or _IOSTAT_STAMP.match(line))


def _text_lines(head: bytes) -> list[str]:
    text = head[: 64 * 1024].decode("utf-8", "replace")
    return text.split("\n", _SNIFF_LINES)[:_SNIFF_LINES]
