"""Recognise a text snapshot by its first lines: section headers that name system files or commands,
or, without headers, lines of `sysctl -a` or `grep -r . /proc/sys/vm` output.

Specific on purpose: the registry tries this before the generic text formats (collapsed stacks,
CSV), so it must not claim their files, nor a document that merely has `== Heading ==` lines.
"""

from __future__ import annotations

import re

from stallscope.ingest.snapshot_text.content import SYSCTL_LINE
from stallscope.ingest.snapshot_text.headers import (
    COMMANDS,
    HEADER,
    STYLE_OF_GROUP,
    Style,
    command_words,
    hash_header_name,
    name_key,
    phase_marker,
    read_path,
)
from stallscope.ingest.snapshot_text.paths import known_path
from stallscope.ingest.snapshot_text.sections import KNOWN_NAMES

SNIFF_LINES = 400
FIRST_HEADER_WITHIN = 6
"""Non-blank lines a script may print before its first header (a banner, a date)."""
HEADERLESS_LINES = 10
_SETTINGS_DIRS = (
    "/proc/sys/",
    "/sys/kernel/",
    "/sys/fs/cgroup/",
    "/sys/devices/system/cpu/",
    "/etc/",
    "/boot/",
)
"""Where settings live: a header naming a file there is a snapshot's even when the model keeps it as text."""
_SYSTEM_PATH_LINE = re.compile(r"^/(?:proc|sys)/[^\s:=]+(?:[ \t]*=[ \t]?|[ \t]*:)")


def detect(head: bytes) -> bool:
    lines = _lines(head)
    if lines is None:
        return False
    return _has_headers(lines) or _is_headerless(lines)


def _lines(head: bytes) -> list[str] | None:
    """The first non-blank lines of the head, or None when it is not text (a few NULs are: a raw
    `/proc/PID/environ` is NUL-separated)."""
    if not head or head.count(b"\0") * 50 > len(head) or head.startswith(b"PERFILE"):
        return None
    text = head.decode("utf-8", "replace")
    bad = text.count("\ufffd")
    if bad > 4 and bad * 100 > len(text):
        return None
    lines = text.replace("\r\n", "\n").split("\n", SNIFF_LINES)[:SNIFF_LINES]
    return [line.rstrip() for line in lines if line.strip()]


def _has_headers(lines: list[str]) -> bool:
    style: Style | None = None
    for number, line in enumerate(lines):
        found = HEADER.match(line)
        if found is None:
            continue
        group = found.lastgroup or ""
        name = found.group(group)
        this = STYLE_OF_GROUP[group]
        if style is not None and this is not style:
            continue
        if this is Style.HASH and not hash_header_name(name, KNOWN_NAMES):
            continue
        if style is None:
            if number >= FIRST_HEADER_WITHIN:
                return False
            style = this
        if _telling(name):
            return True
    return False


def _telling(name: str) -> bool:
    """A header name only a system snapshot has: a system path, a command, a known section, a take."""
    words = command_words(name)
    if not words:
        return False
    path = read_path(words)
    if path is not None:
        # A file the model reads, not just any system path: `==> /proc/PID/task/TID/stack <==`
        # is `head -v` of kernel stacks, another format.
        return known_path(path) or path.startswith(_SETTINGS_DIRS)
    return words[0] in COMMANDS or name_key(name) in KNOWN_NAMES or phase_marker(name) is not None


def _is_headerless(lines: list[str]) -> bool:
    first = lines[:HEADERLESS_LINES]
    matching = sum(1 for line in first if SYSCTL_LINE.match(line) or _SYSTEM_PATH_LINE.match(line))
    return matching >= 3 and matching * 5 >= len(first) * 4
