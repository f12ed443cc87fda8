"""Where a file's content goes in the snapshot model, by the file's path.

`/sys/kernel/mm/transparent_hugepage/defrag` is the collector's `transparent_hugepage.defrag`,
`/proc/sys/vm/dirty_ratio` its `vm.dirty_ratio`, and so on: a text snapshot and the collector's
document of the same host end up on the same keys. Paths this table does not know are not mapped
(the caller keeps them as text).
"""

from __future__ import annotations

import enum
import functools
import re
from collections.abc import Callable

from stallscope.ingest.snapshot.model import KERNEL_SYSCTL_NAMES, PROCESS_STATUS_FIELDS
from stallscope.ingest.snapshot_text import content
from stallscope.ingest.snapshot_text.secrets import redact_argv
from stallscope.ingest.snapshot_text.take import Take

THP_DIR = "/sys/kernel/mm/transparent_hugepage"
GOVERNOR_GLOB = "/sys/devices/system/cpu/cpu*/cpufreq/scaling_governor"
SYSCTL_DIR = "/proc/sys"
LIST_TRACING_FILES = frozenset({"set_event", "kprobe_events", "uprobe_events"})
SCALAR_TRACING_FILES = frozenset({"current_tracer", "tracing_on", "set_ftrace_filter", "trace_clock"})

_THP = re.compile(r"^/sys/kernel/mm/transparent_hugepage/(.+)$")
_GOVERNOR = re.compile(
    r"^/sys/devices/system/cpu/cpu(\d+)/cpufreq/(scaling_governor|energy_performance_preference)$"
)
_TRACING = re.compile(r"^/sys/kernel/(?:debug/)?tracing/(?:instances/([^/]+)/)?([\w.]+)$")
_KPROBES = re.compile(r"^/sys/kernel/debug/kprobes/(list|enabled)$")
_CGROUP_LIMIT = re.compile(
    r"^/sys/fs/cgroup/(.*?)/?((?:memory\.(?:max|high|low|min|swap\.max|oom\.group|limit_in_bytes"
    r"|soft_limit_in_bytes|memsw\.limit_in_bytes|swappiness))|(?:cpu\.(?:max|weight|shares|cfs_quota_us"
    r"|cfs_period_us))|cpuset\.(?:cpus|mems)|pids\.max|io\.max)$"
)
_PROCESS = re.compile(r"^/proc/(\d+)/(environ|cmdline|comm|cgroup|status|maps|mounts)$")
_BLOCK = re.compile(r"^/sys/block/([^/]+)/queue/(scheduler|rotational|nr_requests|read_ahead_kb)$")
_KERNEL_CONFIG = re.compile(r"^(?:/proc/config\.gz|/boot/config-[^/]+)$")
_MOUNTS = frozenset({"/proc/mounts", "/proc/self/mounts", "/etc/mtab"})


ENV_NOTE = (
    "environment variables not kept: only those that change how a process allocates, links or "
    "schedules are (LD_BIND_NOW, MALLOC_*, …); the rest may hold secrets"
)


def value_of(raw: str) -> str:
    """A file's value as the collector stores it: its text, stripped."""
    return raw.strip()


def lines_of(raw: str) -> list[str]:
    return [line for line in raw.strip().splitlines() if line.strip()]


def map_sysctl(take: Take, dotted: str, value: str, error: str | None = None) -> None:
    """`vm.dirty_ratio` → vm, the collector's `kernel.*` → kernel_sysctl, the rest → sysctl."""
    if error is None:
        error = content.read_error(value)
    section, key = sysctl_target(dotted)
    if error is not None:
        take.error(section, key, error)
        return
    value = value.strip()
    take.put(section, key, value)
    if dotted == "kernel.perf_event_paranoid" and (level := content.small_int(value)) is not None:
        take.put("perf", "perf_event_paranoid", level)
    elif dotted == "kernel.hostname" and value:
        take.name_host(value)


@functools.lru_cache(maxsize=16384)
def sysctl_target(dotted: str) -> tuple[str, str]:
    """Where a sysctl goes: (section, key)."""
    root, _, rest = dotted.partition(".")
    if root == "vm" and "." not in rest:
        return "vm", rest
    if root == "kernel" and rest in KERNEL_SYSCTL_NAMES:
        return "kernel_sysctl", rest
    return "sysctl", dotted


_SYSCTL_WITH_EXTRAS = frozenset({"kernel.perf_event_paranoid", "kernel.hostname"})
_SCALAR_FILES = {
    "/sys/devices/system/cpu/online": ("cpu", "online"),
    "/proc/version": ("kernel", "proc_version"),
    "/proc/cmdline": ("kernel", "cmdline"),
    "/proc/loadavg": ("system", "loadavg"),
    "/proc/uptime": ("system", "uptime"),
}
"""Single files stored as they are, under these (section, key)."""


@functools.lru_cache(maxsize=16384)
def scalar_target(path: str) -> tuple[str, str] | None:
    """(section, key) for a file whose content is stored as it is, stripped (a THP setting, a
    sysctl, a cgroup limit, `current_tracer`, `/proc/version`…): most of what a snapshot names, so
    the parser puts these directly.
    None for every other file, which `map_path` handles; both put the same value."""
    found = _THP.match(path)
    if found is not None:
        return "transparent_hugepage", found.group(1).replace("/", "_")
    if path.startswith(SYSCTL_DIR + "/") and len(path) > len(SYSCTL_DIR) + 1:
        dotted = path[len(SYSCTL_DIR) + 1 :].replace("/", ".")
        return None if dotted in _SYSCTL_WITH_EXTRAS else sysctl_target(dotted)
    found = _CGROUP_LIMIT.match(path)
    if found is not None:
        directory, name = found.groups()
        return "cgroup", f"{directory}/{name}" if directory else name
    found = _TRACING.match(path)
    if found is not None:
        instance, name = found.groups()
        if name not in SCALAR_TRACING_FILES:
            return None
        return "tracing", f"instances/{instance}/{name}" if instance else name
    return _SCALAR_FILES.get(path)


class Mapped(enum.Enum):
    """How much of a file's content the model took."""

    ALL = "all"
    PART = "part"
    """Some values were taken (a model name from /proc/cpuinfo); the text is worth keeping too."""
    NONE = "none"


def map_path(take: Take, path: str, raw: str) -> Mapped:
    """Put a file's content where the collector would."""
    rule = _rule(path)
    if rule is None:
        return Mapped.NONE
    apply, found = rule
    error = content.read_error(raw)
    if error is not None and "\n" in raw.strip():
        error = None  # an error line among values is cut out by the section reader, not a value
    return apply(take, found, raw, error) or Mapped.ALL


@functools.lru_cache(maxsize=16384)
def _rule(path: str) -> tuple[Apply, Match] | None:
    """The rule for a path and what it matched; cached, as every take names the same files."""
    for pattern, apply in _RULES:
        found = pattern(path)
        if found is not None:
            return apply, found
    return None


def known_path(path: str) -> bool:
    """Whether the model has a place for this file's content (a glob of CPUs counts)."""
    return path == GOVERNOR_GLOB or _rule(path) is not None


def map_error(take: Take, path: str, why: str) -> bool:
    """Record that a known file could not be read; False when the path is not one it knows."""
    return map_path(take, path, f"cat: {path}: {why}") is not Mapped.NONE


# -- rules: (match the path, put its content) ---------------------------------------------------


Match = tuple[str, ...]
Apply = Callable[[Take, Match, str, str | None], Mapped | None]
"""Puts the content; None means all of it was taken."""


def _put(take: Take, section: str, key: str, raw: str, error: str | None, value: object = None) -> None:
    if error is not None:
        take.error(section, key, error)
    else:
        take.put(section, key, value_of(raw) if value is None else value)


def _thp(take: Take, found: Match, raw: str, error: str | None) -> None:
    _put(take, "transparent_hugepage", found[0].replace("/", "_"), raw, error)


def _governor(take: Take, found: Match, raw: str, error: str | None) -> None:
    cpu, name = found
    key = "governors" if name == "scaling_governor" else name
    if error is not None:
        take.error("cpu", key, error)
    else:
        take.put_in("cpu", key, cpu, value_of(raw))


def _governor_glob(take: Take, found: Match, raw: str, error: str | None) -> None:
    if error is not None:
        take.error("cpu", "governors", error)
    else:
        governors_in_glob_order(take, lines_of(raw))


def governors_in_glob_order(take: Take, values: list[str]) -> None:
    """Governors printed one a line by `cat …/cpu*/cpufreq/scaling_governor`: the shell's glob order
    is cpu0, cpu1, cpu10, cpu11, …, cpu2, so the values are numbered the same way."""
    for cpu, governor in zip(sorted(range(len(values)), key=str), values, strict=True):
        take.put_in("cpu", "governors", str(cpu), governor.strip())


def _tracing(take: Take, found: Match, raw: str, error: str | None) -> Mapped | None:
    instance, name = found
    if name not in LIST_TRACING_FILES and name not in SCALAR_TRACING_FILES:
        return Mapped.NONE  # trace, available_events…: text
    value: object = lines_of(raw) if name in LIST_TRACING_FILES else value_of(raw)
    if not instance:
        _put(take, "tracing", name, raw, error, value)
        return None
    key = f"instances/{instance}/{name}"
    _put(take, "tracing", key, raw, error, value)
    return None


def _kprobes(take: Take, found: Match, raw: str, error: str | None) -> None:
    name = found[0]
    if name == "list":
        _put(take, "tracing", "kprobes_list", raw, error, lines_of(raw))
    else:
        _put(take, "tracing", "kprobes_enabled", raw, error)


def _sysctl(take: Take, found: Match, raw: str, error: str | None) -> None:
    map_sysctl(take, found[0].replace("/", "."), raw, error)


def _cgroup(take: Take, found: Match, raw: str, error: str | None) -> None:
    directory, name = found
    _put(take, "cgroup", f"{directory}/{name}" if directory else name, raw, error)


def _process(take: Take, found: Match, raw: str, error: str | None) -> None:
    pid, name = found
    if error is not None:
        take.put_in("processes", pid, name, None)
        return
    if name == "environ":
        env = content.environment(raw.replace("\x00", "\n"))
        take.put_in("processes", pid, "environment", env.kept)
        if env.others:
            take.warn(f"process {pid}: {env.others} {ENV_NOTE}")
    elif name == "cmdline":
        text = raw.strip().replace("\x00", "\n")
        args = text.split("\n") if "\n" in text else text.split()
        take.put_in("processes", pid, "cmdline", redact_argv(a.strip() for a in args if a.strip()))
    elif name == "comm":
        take.put_in("processes", pid, "comm", value_of(raw))
    elif name == "cgroup":
        take.put_in("processes", pid, "cgroup", lines_of(raw))
    elif name == "status":
        take.put_in("processes", pid, "status", content.status_fields(raw, PROCESS_STATUS_FIELDS))
    elif name == "maps":
        take.put_in("processes", pid, "libraries", content.mapped_libraries(raw))
    else:
        _mounts(take, found, raw, error)


def _block(take: Take, found: Match, raw: str, error: str | None) -> None:
    device, name = found
    queues = take.section("system").get("block_queues")
    if not isinstance(queues, dict):
        queues = {}
        take.put("system", "block_queues", queues)
    queues.setdefault(device, {})[name] = None if error is not None else value_of(raw)


def _kernel_config(take: Take, found: Match, raw: str, error: str | None) -> None:
    if error is not None:
        take.error("kernel_config", "config", error)
        return
    take.put_many("kernel_config", content.kernel_config(raw))


def _mounts(take: Take, found: Match, raw: str, error: str | None) -> None:
    if error is not None:
        take.error("mounts", "mounts", error)
        return
    take.put_many("mounts", content.mounts(raw).entries)


def _stored(section: str, key: str) -> Apply:
    def apply(take: Take, found: Match, raw: str, error: str | None) -> None:
        _put(take, section, key, raw, error)

    return apply


def _cpuinfo(take: Take, found: Match, raw: str, error: str | None) -> Mapped:
    model, count = content.cpu_model_and_count(raw)
    if model is not None:
        take.put("cpu", "model", model)
    if count:
        take.put("cpu", "count", count)
    return Mapped.PART  # the rest (flags, MHz per CPU) stays as text


def _hostname(take: Take, found: Match, raw: str, error: str | None) -> None:
    if error is None and value_of(raw):
        take.host = value_of(raw).split()[0]


def _regex(pattern: re.Pattern[str]) -> Callable[[str], Match | None]:
    def match(path: str) -> Match | None:
        found = pattern.match(path)
        return None if found is None else tuple(g or "" for g in found.groups())

    return match


def _exact(*paths: str) -> Callable[[str], Match | None]:
    return lambda path: () if path in paths else None


def _prefix(prefix: str) -> Callable[[str], Match | None]:
    return lambda path: (
        (path[len(prefix) :],) if path.startswith(prefix) and len(path) > len(prefix) else None
    )


_RULES: list[tuple[Callable[[str], Match | None], Apply]] = [
    (_regex(_THP), _thp),
    (_regex(_GOVERNOR), _governor),
    (_exact(GOVERNOR_GLOB), _governor_glob),
    (_prefix(SYSCTL_DIR + "/"), _sysctl),
    (_regex(_TRACING), _tracing),
    (_regex(_KPROBES), _kprobes),
    (_exact(*_MOUNTS), _mounts),
    (_regex(_CGROUP_LIMIT), _cgroup),
    (_regex(_PROCESS), _process),
    (_regex(_KERNEL_CONFIG), _kernel_config),
    (_regex(_BLOCK), _block),
    (_exact("/proc/cpuinfo"), _cpuinfo),
    (_exact("/etc/hostname"), _hostname),
    *((_exact(path), _stored(section, key)) for path, (section, key) in _SCALAR_FILES.items()),
]
