"""Readers for the content of one section: mounts, kernel config, BPF programs, environments, errors.

Each takes the section's text and returns values in the collector's shapes (or the shape a new
section has), plus what it could not read, which the caller keeps as text.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from stallscope.ingest.json_text import loads
from stallscope.ingest.snapshot.model import ENV_OF_INTEREST, MAX_ENV_VALUE_CHARS
from stallscope.ingest.snapshot_text.secrets import redact_value

READ_ERROR = re.compile(
    r"^(?:\S*/)?(?:cat|head|tail|zcat|grep|tr|sh|bash|cut|less|sysctl)(?::[^:\n]*)?: "
    r"(?:cannot open )?['\"\u2018]?(?P<path>/[^'\"\u2019:\n]*)['\"\u2019]?(?: for reading)?: "
    r"(?P<why>[^\n]+)$",
    re.MULTILINE,
)
"""`cat: /x: No such file or directory`, `head: cannot open '/x' for reading: Permission denied`
(GNU tools in a UTF-8 locale quote with U+2018/U+2019 instead)."""

_SYSCTL_ROOTS = ("abi", "crypto", "debug", "dev", "fs", "kernel", "net", "sunrpc", "user", "vm")
SYSCTL_LINE = re.compile(
    rf"^(?P<key>(?:{'|'.join(_SYSCTL_ROOTS)})(?:\.[\w\-/@:+]+)+)"
    r"[ \t]*[=:][ \t]?(?P<value>.*)$"
)
"""`vm.dirty_ratio = 20` (sysctl -a), also `vm.dirty_ratio: 20`."""
SYSCTL_LINES = re.compile(SYSCTL_LINE.pattern, re.MULTILINE)
"""The same, every line of a block at once."""
MAPPABLE_STARTS = ("/", *(f"{root}." for root in _SYSCTL_ROOTS))
"""How every line `SYSCTL_LINE` or `PATH_LINE` matches starts: a cheap test before either."""
PATH_LINE = re.compile(r"^(?P<path>/[^\s:=]+)(?:[ \t]*=[ \t]?|[ \t]*:[ \t]?)(?P<value>.*)$")
"""`/proc/sys/vm/dirty_ratio:20` (grep -r . DIR), `/proc/sys/vm/dirty_ratio = 20`."""
NAME_LINE = re.compile(r"^(?P<key>[\w.\-/]+)[ \t]*[=:][ \t]?(?P<value>.*)$")
"""`dirty_ratio = 20` or `enabled: always [madvise] never`, relative to the section's directory."""

_KCONFIG = re.compile(r"^(?:(CONFIG_\w+)=(.*)|# (CONFIG_\w+) is not set)$", re.MULTILINE)
_KCONFIG_SET = re.compile(r"^(CONFIG_\w+)=(.*)$", re.MULTILINE)
_KCONFIG_UNSET = re.compile(r"^# (CONFIG_\w+) is not set$", re.MULTILINE)
_PROC_MOUNT = re.compile(r"^(\S+) (\S+) (\S+) (\S+) \d+ \d+$")
_MOUNT_CMD = re.compile(r"^(\S+) on (.+?) type (\S+) \((.*)\)$")
_OCTAL = re.compile(r"\\([0-7]{3})")
_BPF_HEAD = re.compile(
    r"^(?P<id>\d{1,18}): (?P<type>\S+?)\s+(?:name (?P<name>\S+)\s+)?tag (?P<tag>[0-9a-f]+)(?P<rest>.*)$"
)
_BPF_FIELD = re.compile(r"(\w+) (\S+)")
_BPF_BYTES = {"xlated": "bytes_xlated", "jited": "bytes_jited", "memlock": "bytes_memlock"}


def small_int(text: str) -> int | None:
    """A count or id as an int; None for anything else, including digit runs too long to be one
    (converting those is slow, and refused past 4,300 digits)."""
    text = text.strip()
    digits = text[1:] if text.startswith("-") else text
    if not digits or len(digits) > 18 or not (digits.isascii() and digits.isdigit()):
        return None
    return int(text)


def cut_read_errors(text: str) -> tuple[str, list[tuple[str, str]]]:
    """The text without its read-error lines, and (path, reason) for each of them."""
    if (": /" not in text and ": cannot open" not in text) or READ_ERROR.search(text) is None:
        return text, []
    errors = [(m.group("path"), m.group("why").strip()) for m in READ_ERROR.finditer(text)]
    return READ_ERROR.sub("", text), errors


def read_error(value: str) -> str | None:
    """The reason, when a one-line value is a read error (`path = cat: path: Permission denied`)."""
    if ": /" not in value and ": cannot open" not in value:
        return None
    found = READ_ERROR.match(value.strip())
    return found.group("why").strip() if found else None


def kernel_config(text: str) -> dict[str, str]:
    """`CONFIG_X=y` → {"CONFIG_X": "y"}; `# CONFIG_X is not set` → "n", as kconfig reads it."""
    out = dict(_KCONFIG_SET.findall(text))  # a config names each option once, set or not
    if "is not set" in text:
        out.update(dict.fromkeys(_KCONFIG_UNSET.findall(text), "n"))
    return out


def looks_like_kernel_config(text: str) -> bool:
    return text.count("CONFIG_") >= 3 and _KCONFIG.search(text) is not None


@dataclass(slots=True)
class Mounts:
    """Mount points read from `/proc/mounts` or `mount`, and the lines that were neither."""

    entries: dict[str, dict[str, str]] = field(default_factory=dict)
    other: list[str] = field(default_factory=list)


def mounts(text: str) -> Mounts:
    """`dev mountpoint type options 0 0` or `dev on mountpoint type T (options)`, by mount point;
    a later mount on the same point hides the earlier one, so it wins."""
    found = Mounts()
    for line in text.splitlines():
        line = line.strip()
        if not line:
            continue
        match = _PROC_MOUNT.match(line) or _MOUNT_CMD.match(line)
        if match is None:
            found.other.append(line)
            continue
        device, point, fstype, options = match.groups()
        if "\\" in point:  # /proc/mounts writes a space in a path as \040
            point = _OCTAL.sub(lambda m: chr(int(m.group(1), 8)), point)
        found.entries[point] = {"device": device, "type": fstype, "options": options}
    return found


def bpf_programs(text: str) -> list[dict[str, Any]] | None:
    """`bpftool prog show` as its `-j` output would list them; None when the text is neither."""
    stripped = text.strip()
    if not stripped:
        return []
    if stripped.startswith("["):
        try:
            parsed = loads(stripped)
        except ValueError:
            return None
        if isinstance(parsed, list) and all(isinstance(p, dict) for p in parsed):
            return parsed
        return None
    programs: list[dict[str, Any]] = []
    for line in stripped.splitlines():
        head = _BPF_HEAD.match(line)
        if head is not None:
            program: dict[str, Any] = {"id": int(head.group("id")), "type": head.group("type")}
            if head.group("name"):
                program["name"] = head.group("name")
            program["tag"] = head.group("tag")
            program["gpl_compatible"] = "gpl" in head.group("rest").split()
            programs.append(program)
        elif programs and line[:1].isspace():
            _bpf_details(programs[-1], line)
        elif line.strip():
            return None
    return programs


def _bpf_details(program: dict[str, Any], line: str) -> None:
    for key, value in _BPF_FIELD.findall(line):
        if key in _BPF_BYTES and value.endswith("B") and (size := small_int(value[:-1])) is not None:
            program[_BPF_BYTES[key]] = size
        elif key == "uid" and (uid := small_int(value)) is not None:
            program["uid"] = uid
        elif key in ("loaded_at", "btf_id", "map_ids"):
            program[key] = value


@dataclass(slots=True)
class Environment:
    """Variables of interest, masked; how many others there were (never kept: secrets live there)."""

    kept: dict[str, str] = field(default_factory=dict)
    others: int = 0


def environment(text: str) -> Environment:
    env = Environment()
    for line in text.splitlines():
        name, sep, value = line.partition("=")
        if not sep or not name or " " in name:
            continue
        if ENV_OF_INTEREST.match(name):
            env.kept[name] = redact_value(value)[:MAX_ENV_VALUE_CHARS]
        else:
            env.others += 1
    return env


def status_fields(text: str, wanted: frozenset[str]) -> dict[str, str]:
    out = {}
    for line in text.splitlines():
        name, sep, value = line.partition(":")
        if sep and name in wanted:
            out[name] = value.strip()
    return out


def mapped_libraries(text: str) -> list[str]:
    """Unique file paths of `/proc/PID/maps`, as the collector lists them."""
    paths = set()
    for line in text.splitlines():
        parts = line.split(None, 5)
        if len(parts) == 6 and parts[5].startswith("/"):
            paths.add(parts[5].strip())
    return sorted(paths)


def cpu_model_and_count(text: str) -> tuple[str | None, int]:
    """`/proc/cpuinfo`'s model line (as the collector picks it) and its number of processors."""
    model = None
    count = 0
    for line in text.splitlines():
        key, sep, value = line.partition(":")
        if not sep:
            continue
        key = key.strip()
        if key == "processor":
            count += 1
        elif model is None and key in ("model name", "Processor", "cpu model", "uarch") and value.strip():
            model = value.strip()
    return model, count


def json_text(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)
