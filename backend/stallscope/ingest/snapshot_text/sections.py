"""Read one section into the take: by the path it names, the command that printed it, a name this
importer knows, or, failing those, by what its lines look like. What none of these maps is kept as
text under the section's name.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from stallscope.ingest.snapshot_text import content
from stallscope.ingest.snapshot_text.headers import command_words, name_key, read_path
from stallscope.ingest.snapshot_text.paths import (
    ENV_NOTE,
    GOVERNOR_GLOB,
    THP_DIR,
    Mapped,
    governors_in_glob_order,
    map_error,
    map_path,
    map_sysctl,
    scalar_target,
)
from stallscope.ingest.snapshot_text.take import Take
from stallscope.ingest.snapshot_text.times import parse_time

PREAMBLE = "(before the first header)"
_SNIFF_LINES = 20

Reader = Callable[[Take, str, list[str]], str]
"""(take, body, the header's command words) -> the text left unmapped."""


def read_section(take: Take, name: str | None, body: str) -> None:
    """Map what the section holds into `take`; keep the rest as text under its name."""
    body, errors = content.cut_read_errors(body)
    unknown_errors = [f"{path}: {why}" for path, why in errors if not map_error(take, path, why)]
    path, reader = _resolve(name) if name is not None else (None, None)
    if errors and not body.strip() and (path is None or any(error_path == path for error_path, _ in errors)):
        # `cat: PATH: No such file or directory` and nothing else: recorded as PATH's error. Under
        # another file's header (`head -v` prints errors where they fall) the empty body is that file's.
        left = ""
    elif name is None:
        left = map_lines(take, body, None)
    elif path is not None:
        left = _read_path(take, path, body)
    elif reader is not None:
        left = reader(take, body, command_words(name))
    else:
        left = _by_content(take, body)
    if unknown_errors:
        left = "\n".join([left, *unknown_errors]) if left.strip() else "\n".join(unknown_errors)
    if left.strip():
        take.keep_text(name or PREAMBLE, left)


@functools.lru_cache(maxsize=4096)
def _resolve(name: str) -> tuple[str | None, Reader | None]:
    """The path a section is about, or the reader its command or name calls for (neither: its
    content decides). Cached: the same headers come again in every take of a file."""
    words = command_words(name)
    path = read_path(words)
    if path is not None:
        return path, None
    reader = COMMANDS.get(words[0].rsplit("/", 1)[-1]) if words else None
    return None, reader or NAMES.get(name_key(name))


@functools.lru_cache(maxsize=4096)
def scalar_section(name: str) -> tuple[str, str] | None:
    """(section, key) when the header names one file whose content is stored as is (`paths.scalar_target`)."""
    path, _ = _resolve(name)
    return None if path is None or "*" in path or "?" in path else scalar_target(path)


def _read_path(take: Take, path: str, body: str) -> str:
    if "*" in path or "?" in path:
        return _governors(take, body, []) if path == GOVERNOR_GLOB else map_lines(take, body, None)
    mapped = map_path(take, path, body)
    if mapped is Mapped.ALL:
        return ""
    if mapped is Mapped.PART:
        return body
    return map_lines(take, body, path.rstrip("/")) if _is_directory_listing(body) else body


def _is_directory_listing(body: str) -> bool:
    """`grep -r . DIR` or `name = value` lines under a directory's header."""
    lines = [line for line in body.splitlines()[:_SNIFF_LINES] if line.strip()]
    return bool(lines) and all(
        content.PATH_LINE.match(line) or content.NAME_LINE.match(line) for line in lines
    )


def map_lines(take: Take, body: str, base: str | None) -> str:
    """Lines of `key = value` kinds: sysctl names, absolute paths (`grep -r . DIR`), and names under
    `base`. A file printed over several lines (set_event under grep) is gathered before mapping."""
    pairs = content.SYSCTL_LINES.findall(body)
    if pairs and len(pairs) == sum(1 for line in body.splitlines() if line.strip()):
        for key, value in pairs:  # `sysctl -a`: every line a sysctl, found in one pass
            map_sysctl(take, key, value)
        return ""
    by_path: dict[str, list[str]] = {}
    left: list[str] = []
    sysctl_line, path_line, name_line = (
        content.SYSCTL_LINE.match,
        content.PATH_LINE.match,
        content.NAME_LINE.match,
    )
    for line in body.splitlines():
        stripped = line.strip()
        if not stripped:
            continue
        found = sysctl_line(stripped)
        if found is not None:
            map_sysctl(take, found.group("key"), found.group("value"))
            continue
        found = path_line(stripped)
        if found is not None:
            by_path.setdefault(found.group("path"), []).append(found.group("value"))
            continue
        if base is not None:
            found = name_line(stripped)
            if found is not None:
                by_path.setdefault(f"{base}/{found.group('key')}", []).append(found.group("value"))
                continue
        left.append(line)
    for path, values in by_path.items():
        if map_path(take, path, "\n".join(values)) is Mapped.NONE:
            left.extend(f"{path}:{value}" for value in values)
    return "\n".join(left)


def _by_content(take: Take, body: str) -> str:
    """A section whose name says nothing known: mapped when its lines are sysctl or path lines, or a
    kernel config; text otherwise."""
    lines = [line.strip() for line in body.splitlines()[:_SNIFF_LINES] if line.strip()]
    if not lines:
        return body
    mappable = sum(
        1
        for line in lines
        if line.startswith(content.MAPPABLE_STARTS)
        and (content.SYSCTL_LINE.match(line) or content.PATH_LINE.match(line))
    )
    if mappable * 2 > len(lines):
        return map_lines(take, body, None)
    if content.looks_like_kernel_config(body):
        return _kernel_config(take, body, [])
    return body


# -- readers by command and by name -------------------------------------------------------------


def _uname(take: Take, body: str, words: list[str]) -> str:
    line = body.strip().split("\n", 1)[0].strip()
    if not line:
        return body
    tokens = line.split()
    if len(tokens) >= 3:
        take.put("kernel", "uname", line)
        take.name_host(tokens[1])
    else:
        take.put("kernel", "release", line)
    return body.strip().split("\n", 1)[1] if "\n" in body.strip() else ""


def _hostname(take: Take, body: str, words: list[str]) -> str:
    value = body.strip().split()
    if value:
        take.host = value[0]
    return ""


def _date(take: Take, body: str, words: list[str]) -> str:
    when = parse_time(body)
    if when is None:
        if body.strip():
            take.warn(f"could not read a time from {body.strip()[:60]!r}; the take has no time")
        return ""
    take.taken_at_ns = when
    return ""


def _sysctl(take: Take, body: str, words: list[str]) -> str:
    return map_lines(take, body, None)


def _environment(take: Take, body: str, words: list[str]) -> str:
    env = content.environment(body.replace("\x00", "\n"))
    for name, value in env.kept.items():
        take.put("environment", name, value)
    if env.others:
        take.warn(f"{env.others} {ENV_NOTE}")
    take.put_many("environment", {})  # read, even when nothing in it was of interest
    return ""


def _mounts(take: Take, body: str, words: list[str]) -> str:
    found = content.mounts(body)
    take.put_many("mounts", found.entries)
    return "\n".join(found.other) if found.entries else body


def _bpftool(take: Take, body: str, words: list[str]) -> str:
    if "prog" not in words and "program" not in words:
        return body
    return _bpf(take, body, words)


def _bpf(take: Take, body: str, words: list[str]) -> str:
    programs = content.bpf_programs(body)
    if programs is None:
        take.warn("BPF programs: neither `bpftool prog show` nor its -j output; kept as text")
        return body
    take.put("bpf", "programs", programs)
    return ""


def _perf(take: Take, body: str, words: list[str]) -> str:
    if "version" in words or "--version" in words:
        take.put("perf", "version", body.strip())
        return ""
    return body


def _kernel_config(take: Take, body: str, words: list[str]) -> str:
    config = content.kernel_config(body)
    if not config:
        return body
    take.put_many("kernel_config", config)
    return ""


def _under(directory: str) -> Reader:
    def reader(take: Take, body: str, words: list[str]) -> str:
        return map_lines(take, body, directory)

    return reader


def _tracing_file(name: str) -> Reader:
    def reader(take: Take, body: str, words: list[str]) -> str:
        map_path(take, f"/sys/kernel/tracing/{name}", body)
        return ""

    return reader


def _governors(take: Take, body: str, words: list[str]) -> str:
    """`grep . …/scaling_governor` lines, `cpu0: performance`, or bare values in glob order."""
    left = map_lines(take, body, None)
    bare: list[str] = []
    rest: list[str] = []
    for line in left.splitlines():
        words_of_line = line.replace(":", " ").split()
        if len(words_of_line) == 2 and words_of_line[0].startswith("cpu") and words_of_line[0][3:].isdigit():
            take.put_in("cpu", "governors", words_of_line[0][3:], words_of_line[1])
        elif len(words_of_line) == 1:
            bare.append(words_of_line[0])
        elif line.strip():
            rest.append(line)
    governors_in_glob_order(take, bare)
    return "\n".join(rest)


COMMANDS: dict[str, Reader] = {
    "uname": _uname,
    "hostname": _hostname,
    "date": _date,
    "sysctl": _sysctl,
    "env": _environment,
    "printenv": _environment,
    "mount": _mounts,
    "bpftool": _bpftool,
    "perf": _perf,
}
"""Sections named by the command that printed them (`uname -a`, `sysctl -a`, `bpftool prog show`)."""

NAMES: dict[str, Reader] = {
    "thp": _under(THP_DIR),
    "transparent hugepage": _under(THP_DIR),
    "transparent hugepages": _under(THP_DIR),
    "governor": _governors,
    "governors": _governors,
    "scaling governor": _governors,
    "cpufreq": _governors,
    "cpufreq governors": _governors,
    "vm": _under("/proc/sys/vm"),
    "sysctl": _sysctl,
    "sysctls": _sysctl,
    "environment": _environment,
    "environ": _environment,
    "mounts": _mounts,
    "mount options": _mounts,
    "cgroup": _under("/sys/fs/cgroup"),
    "cgroups": _under("/sys/fs/cgroup"),
    "cgroup limits": _under("/sys/fs/cgroup"),
    "bpf": _bpf,
    "bpf programs": _bpf,
    "kernel config": _kernel_config,
    "kernel configuration": _kernel_config,
    "kconfig": _kernel_config,
    "config": _kernel_config,
    "set event": _tracing_file("set_event"),
    "kprobe events": _tracing_file("kprobe_events"),
    "uprobe events": _tracing_file("uprobe_events"),
    "current tracer": _tracing_file("current_tracer"),
    "tracing on": _tracing_file("tracing_on"),
    "hostname": _hostname,
    "date": _date,
    "uname": _uname,
}
"""Sections named for what they hold (`---- thp ----`), lower case, `_` read as a space."""

KNOWN_NAMES = frozenset(NAMES)
