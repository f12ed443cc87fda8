"""Section headers of text snapshots, and what a header's name says the section holds.

Three header styles are read, each the way scripts people already have print them:

- `== /sys/kernel/mm/transparent_hugepage/enabled ==` (any run of two or more `=`), and `head -v`'s
  and `tail`'s `==> path <==`;
- `# /proc/sys/vm/dirty_ratio` or `# uname -a`: a `#` line is a header only when it names an
  absolute path, a command, or a section this importer knows; otherwise it is a comment (kernel
  config, sysctl.conf and shell prompts are full of those);
- `---- sysctl -a ----` (three or more `-`, spaces around the name: `-----BEGIN…-----` is not one).

A file's first header fixes its style: lines in another style are then body, so a `# /etc/fstab`
comment inside a `== … ==` file stays in its section.
"""

from __future__ import annotations

import enum
import functools
import re
from dataclasses import dataclass

from stallscope.ingest.snapshot_text.times import parse_time


class Style(enum.Enum):
    EQUALS = "== path =="
    HASH = "# path"
    DASHES = "---- name ----"


_EQ = r"={2,}>?[ \t]*(?P<eq>[^=\s](?:[^\n]*[^=\s<])?)[ \t]*<?={2,}"
_DASH = r"-{3,}[ \t]+(?P<dash>[^-\s](?:[^\n]*\S)?)[ \t]+-{3,}"
_HASH = r"#{1,3}[ \t]+(?P<hash>(?!CONFIG_)[^#\s](?:[^\n]*\S)?)"
"""Not `# CONFIG_X is not set`: a kernel config holds thousands, none a header."""
HEADER = re.compile(rf"^(?:{_EQ}|{_DASH}|{_HASH})[ \t]*$", re.MULTILINE)
"""Every candidate header in a block of text; `#` candidates still need `hash_header_name`."""
STYLE_OF_GROUP = {"eq": Style.EQUALS, "dash": Style.DASHES, "hash": Style.HASH}
HEADER_OF_STYLE = {
    style: re.compile(rf"\n{pattern}[ \t]*(?=\n)")
    for style, pattern in ((Style.EQUALS, _EQ), (Style.DASHES, _DASH), (Style.HASH, _HASH))
}
"""One style's headers, each after a newline: with that literal start the search skips ahead at
C speed instead of trying the three styles at every line. Searched in a block with a newline added
at each end."""
MAX_NAME_CHARS = 300

COMMANDS = frozenset(
    [
        "uname",
        "hostname",
        "date",
        "sysctl",
        "env",
        "printenv",
        "mount",
        "findmnt",
        "bpftool",
        "perf",
        "cat",
        "head",
        "tail",
        "zcat",
        "grep",
        "ps",
        "top",
        "free",
        "df",
        "lsmod",
        "lscpu",
        "dmesg",
        "uptime",
        "cpupower",
        "tuned-adm",
        "ulimit",
        "numactl",
        "sar",
        "vmstat",
        "iostat",
        "mpstat",
        "ls",
        "systemctl",
        "ip",
        "ss",
        "netstat",
        "lsblk",
        "ethtool",
        "getconf",
        "ldd",
        "id",
        "tr",
        "sh",
        "bash",
        "awk",
        "sed",
        "cut",
        "sort",
        "lsof",
        "pidstat",
    ]
)
"""First words that make a `#` line a command header (`# uname -a`, `# cat /proc/cmdline`)."""

READERS = frozenset({"cat", "head", "tail", "zcat", "less", "more", "tr", "grep"})
"""Commands whose output is a file's content: `cat PATH` names the section after PATH."""

_KEY_COLON_VALUE = re.compile(r"^[\w .-]+ : ")
"""`# hostname : db-7`: perf script's header of recording facts, not a command's section."""
_PROMPT = re.compile(r"^(?:[$#>]\s*)?(?:sudo\s+(?:-\S+\s+)*)?")
_MARKER = re.compile(
    r"(?i)^(?:(?:snapshot|take|config)[ \t:_-]*)?(?P<phase>start|begin|before|end|finish|after)"
    r"(?:[ \t:_-]*(?:snapshot|take|config|state))?(?:[ \t]*[:@,-]?[ \t]*(?P<when>\S.*))?$"
)
_PHASE_LABEL = {"begin": "start", "finish": "end"}


@dataclass(frozen=True, slots=True)
class Marker:
    """A header that starts a take rather than a section: `==== start 2026-11-22T00:28:01Z ====`."""

    label: str
    taken_at_ns: int | None


@functools.lru_cache(maxsize=4096)
def phase_marker(name: str) -> Marker | None:
    """The take a header starts, or None: `start`, `end`, `before`, `after`, with an optional time."""
    found = _MARKER.match(name.strip())
    if found is None:
        return None
    when = found.group("when")
    taken_at = None
    if when is not None:
        taken_at = parse_time(when)
        if taken_at is None:
            return None  # "end of General setup" is a kernel config comment, not a take
    phase = found.group("phase").lower()
    return Marker(_PHASE_LABEL.get(phase, phase), taken_at)


def command_words(name: str) -> list[str]:
    """The header's command without a prompt or sudo, cut at the first pipe: `cat /x | tr …` → cat /x."""
    command = _PROMPT.sub("", name.strip(), count=1).split("|", 1)[0]
    return command.split()


def read_path(words: list[str]) -> str | None:
    """The one absolute path a header is about: `/x`, `cat /x`, `zcat /proc/config.gz`; else None."""
    if len(words) == 1 and words[0].startswith("/"):
        return words[0]
    if len(words) >= 2 and words[0].rsplit("/", 1)[-1] in READERS:
        paths = [w for w in words[1:] if not w.startswith("-")]
        if len(paths) == 1 and paths[0].startswith("/"):
            return paths[0]
    return None


@functools.lru_cache(maxsize=4096)
def hash_header_name(name: str, known_names: frozenset[str]) -> bool:
    """Whether a `# …` line is a header: a single absolute path, a command, a known name, a marker."""
    if len(name) > MAX_NAME_CHARS:
        return False
    words = command_words(name)
    if not words or _KEY_COLON_VALUE.match(name):
        return False
    if words[0].startswith("/"):
        return len(words) == 1
    return words[0] in COMMANDS or name_key(name) in known_names or phase_marker(name) is not None


def name_key(name: str) -> str:
    """A section name as the table of known names spells it: `Transparent_Hugepage` → transparent hugepage."""
    return " ".join(name.lower().replace("_", " ").split())
