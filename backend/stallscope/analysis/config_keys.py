"""A snapshot document as flat, comparable settings: (section, key) → normalised value.

The collector's JSON and a text snapshot of the same host give the same keys and values: a THP file
reads `always [madvise] never` and compares as `madvise`; whitespace runs compare as one space;
processes are named by `comm`, not pid (pids differ between hosts); set-like lists (enabled trace
events, kprobes, BPF programs, mapped libraries) become one key per member, so a diff names the
event that appeared rather than "the list changed".

What changes on its own from one second to the next (load average, RSS, counters, `ps`/`top`) or
names the host rather than its configuration (`kernel.hostname`) is set aside as not compared.
Pure: no database, no HTTP.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

SEP = " · "
"""Between the parts of a nested key: `appserver · environment · LD_BIND_NOW`."""
TEXT_SECTION = "text"
"""Sections a text snapshot kept as text are compared whole, under this section."""

SECTION_ORDER = (
    "transparent_hugepage",
    "cpu",
    "vm",
    "tracing",
    "bpf",
    "environment",
    "processes",
    "cgroup",
    "kernel_sysctl",
    "sysctl",
    "system",
    "mounts",
    "perf",
    "kernel",
    "kernel_config",
    TEXT_SECTION,
)
"""Sections in the order a diff lists them: the settings behind the stalls this console is for come
first (compaction, CPU frequency, writeback, probe overhead, lazy binding), build details last."""

_CHOICE = re.compile(r"^(?:[\w+-]+ )*\[([\w+-]+)\](?: [\w+-]+)*$")
"""`always [madvise] never`, `none [mq-deadline] kyber bfq`: the bracketed word is the setting."""
_WHOLE_SECTIONS = frozenset({"environment", "mounts", "kernel_config"})
"""Sections read whole (an environment, the mount table, a kernel config): a key one side lacks
is one that side does not have, not one it did not read."""
_LIST_KEYS = frozenset({"set_event", "kprobe_events", "uprobe_events", "kprobes_list"})
_VOLATILE_SYSCTL = (
    "kernel.random.",
    "kernel.ns_last_pid",
    "kernel.pty.nr",
    "fs.dentry-state",
    "fs.inode-nr",
    "fs.inode-state",
    "fs.file-nr",
    "fs.aio-nr",
    "fs.quota.",
    "net.netfilter.nf_conntrack_count",
)
_IDENTITY_SYSCTL = frozenset({"kernel.hostname", "kernel.domainname"})
_VOLATILE_STATUS = frozenset({"State", "VmRSS", "VmSwap", "Threads"})
_VOLATILE_THP = re.compile(r"(?:^|_)stats_|^khugepaged_(?:full_scans|pages_collapsed)$")
_VOLATILE_COMMANDS = frozenset(
    [
        "ps",
        "top",
        "htop",
        "free",
        "uptime",
        "date",
        "df",
        "du",
        "vmstat",
        "iostat",
        "mpstat",
        "sar",
        "pidstat",
        "dmesg",
        "w",
        "who",
        "ss",
        "netstat",
        "lsof",
        "journalctl",
    ]
)
_VOLATILE_FILES = re.compile(
    r"^/proc/(?:loadavg|uptime|meminfo|stat|vmstat|interrupts|softirqs|diskstats|pressure/\w+|\d+/(?:stat|statm|io|sched))$"
)


@dataclass(frozen=True, slots=True)
class Setting:
    """One comparable value; `value` None means the snapshot could not read it (`note` says why)."""

    section: str
    key: str
    value: str | None
    note: str | None = None
    container: str | None = None
    """For a member of a set-like value (an event of `set_event`, a variable of an environment):
    that value's name. A member one side lacks was removed or added when both sides read its
    container; a plain file one side lacks was only read on the other."""


@dataclass(frozen=True, slots=True)
class Flat:
    """A snapshot's settings by (section, key), and what was set aside with the reason."""

    settings: dict[tuple[str, str], Setting]
    not_compared: dict[str, int]
    """Reason → number of values set aside for it."""
    sections: set[str]
    """Every section the snapshot read, including those that hold nothing (no BPF programs)."""
    containers: set[tuple[str, str]]
    """(section, container) for every set-like value the snapshot read, empty or not."""


def normalise(value: Any) -> str | None:
    """The comparable text of a scalar: bracketed choice picked, whitespace runs made one space."""
    if value is None:
        return None
    if isinstance(value, bool):
        return "1" if value else "0"
    text = " ".join(str(value).split())
    found = _CHOICE.match(text)
    return found.group(1) if found else text


def flatten(document: Mapping[str, Any]) -> Flat:
    """Every setting of a snapshot document (either importer's), keyed for comparison."""
    flat = Flat({}, {}, set(), set())
    sections = document.get("sections")
    for section, values in sections.items() if isinstance(sections, Mapping) else ():
        section = str(section)
        if not isinstance(values, Mapping):
            values = {"": values}
        errors = values.get("errors")
        errors = errors if isinstance(errors, Mapping) else {}
        flat.sections.add(section)
        for key, value, container in _section(section, values):
            if container is not None:
                flat.containers.add((section, container))
                if key is None:
                    continue
            assert key is not None
            reason = _set_aside(section, key)
            if reason is not None:
                flat.not_compared[reason] = flat.not_compared.get(reason, 0) + 1
                continue
            note = errors.get(key.split(SEP, 1)[0]) if value is None else None
            flat.settings[(section, key)] = Setting(
                section, key, value, str(note) if note else None, container
            )
    text_sections = document.get("text_sections")
    for name, text in text_sections.items() if isinstance(text_sections, Mapping) else ():
        if _volatile_text(str(name)):
            flat.not_compared["changes by itself"] = flat.not_compared.get("changes by itself", 0) + 1
            continue
        flat.sections.add(TEXT_SECTION)
        flat.settings[(TEXT_SECTION, str(name))] = Setting(TEXT_SECTION, str(name), _text(text))
    return flat


def section_rank(section: str) -> tuple[int, str]:
    try:
        return SECTION_ORDER.index(section), section
    except ValueError:
        return len(SECTION_ORDER) - 1, section  # new sections before the kept text


Item = tuple[str | None, str | None, str | None]
"""(key, value, container): a member names its container; (None, None, container) says a container
was read, so that an empty one still counts."""


def _section(section: str, values: Mapping[str, Any]) -> Iterator[Item]:
    if section in _WHOLE_SECTIONS:
        yield None, None, ""
    for key, value in values.items():
        key = str(key)
        if key == "errors":
            continue
        if section == "cpu" and key in ("governors", "energy_performance_preference"):
            yield key, _per_cpu(value), None
        elif section == "tracing" and key.rsplit("/", 1)[-1] in _LIST_KEYS:
            yield from _members(key, key.rsplit("/", 1)[-1], value, _trace_member)
        elif section == "bpf" and key == "programs":
            yield from _bpf_programs(value)
        elif section == "processes":
            continue  # all processes at once, below, to name them
        elif section == "kernel" and key == "uname":
            yield key, _uname_without_host(value), None
        elif section == "mounts" and isinstance(value, Mapping):
            yield key, normalise(f"{value.get('type', '')} {value.get('options', '')}"), ""
        else:
            for inner_key, inner_value in _nested(key, value):
                yield inner_key, inner_value, "" if section in _WHOLE_SECTIONS else None
    if section == "processes":
        yield from _processes(values)


def _nested(key: str, value: Any) -> Iterator[tuple[str, str | None]]:
    if isinstance(value, Mapping):
        for inner, inner_value in value.items():
            if inner != "errors":
                yield from _nested(f"{key}{SEP}{inner}", inner_value)
    elif isinstance(value, list):
        yield key, _text("\n".join(str(item) for item in value))
    else:
        yield key, normalise(value)


def _members(key: str, container: str, value: Any, split: Any) -> Iterator[Item]:
    """A set-like list as one key per member; None (unreadable) as the list's own key."""
    if not isinstance(value, list):
        yield key, normalise(value), None
        return
    yield None, None, container
    for item in value:
        member, member_value = split(str(item))
        yield f"{key}{SEP}{member}", member_value, container


def _trace_member(line: str) -> tuple[str, str]:
    """`sched:sched_switch` → enabled; `p:kprobes/x do_sys_open arg=%di` → x's definition."""
    words = line.split(None, 1)
    if len(words) == 2 and ":" in words[0] and not words[0].endswith(":"):
        return words[0], " ".join(words[1].split())
    return " ".join(line.split()), "enabled"


def _bpf_programs(value: Any) -> Iterator[Item]:
    """By type and name, counted (ids and load times differ on every host)."""
    if not isinstance(value, list):
        yield "programs", normalise(value), None
        return
    yield None, None, "programs"
    counts: dict[str, int] = {}
    for program in value:
        if isinstance(program, Mapping):
            name = f"{program.get('type', '?')} {program.get('name', '(no name)')}"
            counts[name] = counts.get(name, 0) + 1
    for name, count in sorted(counts.items()):
        yield f"program{SEP}{name}", "loaded" if count == 1 else f"loaded {count} times", "programs"


def _processes(values: Mapping[str, Any]) -> Iterator[Item]:
    names: dict[str, int] = {}
    for pid in sorted(values, key=lambda p: _number(str(p), 0)):
        process = values[pid]
        if not isinstance(process, Mapping):
            continue
        base = _process_name(str(pid), process)
        names[base] = names.get(base, 0) + 1
        name = base if names[base] == 1 else f"{base} #{names[base]}"
        for key, value in process.items():
            if key in ("errors", "threads", "comm"):
                continue
            prefix = f"{name}{SEP}{key}"
            if key == "cmdline" and isinstance(value, list):
                yield prefix, normalise(" ".join(str(arg) for arg in value)), None
            elif key == "libraries" and isinstance(value, list):
                yield None, None, prefix
                for library in value:
                    yield f"{prefix}{SEP}{library}", "mapped", prefix
            elif key == "environment" and isinstance(value, Mapping):
                yield None, None, prefix
                for variable, variable_value in value.items():
                    yield f"{prefix}{SEP}{variable}", normalise(variable_value), prefix
            elif key == "status" and isinstance(value, Mapping):
                for field, field_value in value.items():
                    if field not in _VOLATILE_STATUS:
                        yield f"{prefix}{SEP}{field}", normalise(field_value), None
            else:
                for inner_key, inner_value in _nested(prefix, value):
                    yield inner_key, inner_value, None


def _process_name(pid: str, process: Mapping[str, Any]) -> str:
    comm = process.get("comm")
    if isinstance(comm, str) and comm.strip():
        return comm.strip()
    cmdline = process.get("cmdline")
    if isinstance(cmdline, list) and cmdline:
        return str(cmdline[0]).rsplit("/", 1)[-1]
    return f"pid {pid}"


def _per_cpu(value: Any) -> str | None:
    """`{"0": "performance", "1": "powersave"}` → `0: performance; 1: powersave`, or one word when
    every CPU agrees (hosts with different CPU counts then still compare)."""
    if not isinstance(value, Mapping):
        return normalise(value)
    by_value: dict[str, list[int]] = {}
    for cpu, governor in value.items():
        by_value.setdefault(str(normalise(governor)), []).append(_number(str(cpu), -1))
    if len(by_value) == 1:
        return next(iter(by_value))
    parts = sorted((min(cpus), _ranges(sorted(cpus)), governor) for governor, cpus in by_value.items())
    return "; ".join(f"{cpus}: {governor}" for _, cpus, governor in parts)


def _ranges(numbers: list[int]) -> str:
    out: list[str] = []
    start = prev = numbers[0]
    for n in [*numbers[1:], None]:
        if n is not None and n == prev + 1:
            prev = n
            continue
        out.append(str(start) if start == prev else f"{start}-{prev}")
        if n is not None:
            start = prev = n
    return ",".join(out)


def _uname_without_host(value: Any) -> str | None:
    """`Linux db-7 6.1.0 …` without the host name: each host has its own, and the side says which."""
    if not isinstance(value, str):
        return normalise(value)
    words = value.split()
    return normalise(" ".join([words[0], *words[2:]]) if len(words) > 2 else value)


def _set_aside(section: str, key: str) -> str | None:
    if section == "system" and key in ("loadavg", "uptime"):
        return "changes by itself"
    if section == "sysctl":
        if key in _IDENTITY_SYSCTL:
            return "names the host"
        if key.startswith(_VOLATILE_SYSCTL):
            return "changes by itself"
    if section == "transparent_hugepage" and _VOLATILE_THP.search(key):
        return "changes by itself"
    return None


def _volatile_text(name: str) -> bool:
    words = re.sub(r"^[$#]\s*|^sudo\s+", "", name.strip()).split()
    if not words:
        return False
    command = words[0].rsplit("/", 1)[-1].lower()
    if command in _VOLATILE_COMMANDS:
        return True
    path = words[-1] if command in ("cat", "head", "tail") else words[0]
    return bool(_VOLATILE_FILES.match(path))


def _text(value: Any) -> str:
    return "\n".join(" ".join(line.split()) for line in str(value).strip().splitlines() if line.strip())


def _number(text: str, otherwise: int) -> int:
    """A pid or CPU number; `otherwise` for anything else (a key of untrusted content: not
    necessarily digits, nor short enough to convert)."""
    if 0 < len(text) <= 18 and text.isascii() and text.isdigit():
        return int(text)
    return otherwise
