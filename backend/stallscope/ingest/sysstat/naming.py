"""Column headers of sysstat tables to series names, label keys and units.

One name per quantity whichever tool printed it: mpstat's `%usr`, sar's `%user` and iostat's
`avg-cpu: %user` are all `cpu.user`, so a view can put them side by side. The scheme is described in
the package docstring; this module is its single source.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

LABEL_COLUMNS: dict[str, tuple[str, str]] = {
    # column header -> (series group, label key)
    "CPU": ("cpu", "cpu"),
    "DEV": ("disk", "device"),
    "Device": ("disk", "device"),
    "Device:": ("disk", "device"),
    "IFACE": ("net", "iface"),
    "INTR": ("irq", "irq"),
    "TTY": ("tty", "tty"),
    "FILESYSTEM": ("fs", "filesystem"),
    "NODE": ("node", "node"),
    "FAN": ("fan", "fan"),
    "TEMP": ("temp", "sensor"),
    "IN": ("voltage", "sensor"),
    "DEVICE": ("sensor", "device"),
    "BUS": ("usb", "bus"),
    "FCHOST": ("fc", "fchost"),  # sar -n FC; sysstat 12 prints it last, after the counters
}

_GROUP_BY_FIRST_COLUMN: dict[str, str] = {
    # sections without a label column, told apart by their first column
    "proc/s": "task",
    "pswpin/s": "swap",
    "pgpgin/s": "paging",
    "tps": "io",
    "kbmemfree": "mem",
    "kbswpfree": "swap",
    "kbhugfree": "hugepages",
    "dentunusd": "kernel",
    "runq-sz": "load",
    "call/s": "nfs",
    "scall/s": "nfsd",
    "totsck": "sock",
    "tcp6sck": "sock6",
    "irec/s": "ip",
    "ihdrerr/s": "ip_errors",
    "irec6/s": "ip6",
    "ihdrer6/s": "ip6_errors",
    "imsg/s": "icmp",
    "ierr/s": "icmp_errors",
    "imsg6/s": "icmp6",
    "ierr6/s": "icmp6_errors",
    "active/s": "tcp",
    "atmptf/s": "tcp_errors",
    "idgm/s": "udp",
    "idgm6/s": "udp6",
}
_LABELLED_GROUP_BY_FIRST_COLUMN: dict[str, str] = {
    "total/s": "softnet",  # sar -n SOFT has a CPU column but is not CPU time
}

_ALIASES: dict[str, dict[str, str]] = {
    "cpu": {
        "%usr": "user",
        "%user": "user",
        "%nice": "nice",
        "%sys": "system",
        "%system": "system",
        "%iowait": "iowait",
        "%irq": "irq",
        "%soft": "softirq",
        "%steal": "steal",
        "%guest": "guest",
        "%gnice": "guest_nice",
        "%idle": "idle",
    },
    "disk": {
        "r/s": "reads",
        "w/s": "writes",
        "d/s": "discards",
        "f/s": "flushes",
        "rkB/s": "read_kib",
        "wkB/s": "write_kib",
        "dkB/s": "discard_kib",
        "kB_read/s": "read_kib",
        "kB_wrtn/s": "write_kib",
        "kB_dscd/s": "discard_kib",
        "kB_read": "read_kib_total",
        "kB_wrtn": "write_kib_total",
        "kB_dscd": "discard_kib_total",
        "rrqm/s": "read_merges",
        "wrqm/s": "write_merges",
        "drqm/s": "discard_merges",
        "%rrqm": "read_merges_pct",
        "%wrqm": "write_merges_pct",
        "%drqm": "discard_merges_pct",
        "r_await": "read_await",
        "w_await": "write_await",
        "d_await": "discard_await",
        "f_await": "flush_await",
        "areq-sz": "request_size",
        "rareq-sz": "read_request_size",
        "wareq-sz": "write_request_size",
        "dareq-sz": "discard_request_size",
        "aqu-sz": "queue_size",
        "%util": "util",
    },
    "mem": {
        "kbmemfree": "free",
        "kbavail": "available",
        "kbmemused": "used",
        "%memused": "used_pct",
        "kbbuffers": "buffers",
        "kbcached": "cached",
        "kbcommit": "commit",
        "%commit": "commit_pct",
        "kbactive": "active",
        "kbinact": "inactive",
        "kbdirty": "dirty",
        "kbanonpg": "anon_pages",
        "kbslab": "slab",
        "kbkstack": "kernel_stack",
        "kbpgtbl": "page_tables",
        "kbvmused": "vmalloc_used",
    },
    "hugepages": {
        "kbhugfree": "free",
        "kbhugused": "used",
        "%hugused": "used_pct",
        "kbhugrsvd": "reserved",
        "kbhugsurp": "surplus",
    },
    "fs": {
        "MBfsfree": "free",
        "MBfsused": "used",
        "%fsused": "used_pct",
        "%ufsused": "user_used_pct",
        "Ifree": "inodes_free",
        "Iused": "inodes_used",
        "%Iused": "inodes_used_pct",
    },
    "swap": {
        "kbswpfree": "free",
        "kbswpused": "used",
        "%swpused": "used_pct",
        "kbswpcad": "cached",
        "%swpcad": "cached_pct",
        "pswpin/s": "pages_in",
        "pswpout/s": "pages_out",
    },
}

_TRANSFERS = frozenset({"tps", "rtps", "wtps", "dtps"})
_MS_COLUMNS = frozenset({"await", "r_await", "w_await", "d_await", "f_await", "svctm"})
_PRESSURE = re.compile(r"%([sf])(cpu|io|mem)(?:-(\d+))?\Z")
_NOT_WORD = re.compile(r"[^a-z0-9]+")
_MATRIX_COLUMN = re.compile(r"all\Z|CPU\d+\Z")
SOFTIRQS = frozenset(
    {"HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL", "TASKLET", "SCHED", "HRTIMER", "RCU"}
)


@dataclass(frozen=True, slots=True)
class Column:
    """Where one value of a row goes: the series name, its unit, and extra labels (for matrices)."""

    index: int
    name: str
    unit: str | None
    labels: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True, slots=True)
class Layout:
    """How the rows under one column header become points."""

    columns: tuple[Column, ...]
    label_index: int | None
    label_key: str
    width: int


def unit_of(column: str) -> str | None:
    """The unit sysstat's documentation gives a column, read from its header where the header says."""
    if column.startswith("%"):
        return "%"
    if column in _MS_COLUMNS:
        return "ms"
    if column.endswith("areq-sz"):
        return "KiB"  # sysstat 12 prints request sizes in kilobytes
    if "kB" in column and column.endswith("/s"):
        return "KiB/s"
    if column.startswith(("kb", "kB_")):
        return "KiB"
    if column.startswith("MB"):
        return "MiB"
    if column.endswith("/s") or column in _TRANSFERS:
        return "/s"
    if column == "MHz":
        return "MHz"
    return None


def field_of(group: str, column: str) -> str:
    """The part of the series name after the group: an alias, else the header made a plain word."""
    alias = _ALIASES.get(group, {}).get(column)
    if alias is not None:
        return alias
    body = column.removeprefix("%").removesuffix("/s")
    return _NOT_WORD.sub("_", body.lower()).strip("_") or "value"


def layout(columns: list[str], tool: str) -> Layout:
    """The layout for a header's columns (time words already removed)."""
    label_index = next((i for i, c in enumerate(columns) if c in LABEL_COLUMNS), None)
    if label_index is None:
        group = _GROUP_BY_FIRST_COLUMN.get(columns[0], tool) if columns else tool
        return Layout(named_columns(columns, group), None, "", len(columns))
    group, key = LABEL_COLUMNS[columns[label_index]]
    others = [c for i, c in enumerate(columns) if i != label_index]
    group = _LABELLED_GROUP_BY_FIRST_COLUMN.get(others[0], group) if others else group
    if group == "irq" and others and all(_MATRIX_COLUMN.match(c) for c in others):
        # sar -I: one row per interrupt, one column per CPU.
        return Layout(
            _matrix(columns, label_index, "irq.rate", "cpu", _cpu_of), label_index, key, len(columns)
        )
    if group == "cpu" and len(others) > 1 and all(c.endswith("/s") and c[0] != "%" for c in others):
        # mpstat -I CPU / SCPU: one row per CPU, one column per interrupt.
        name = "softirq.rate" if all(c[:-2] in SOFTIRQS for c in others) else "irq.rate"
        return Layout(_matrix(columns, label_index, name, "irq", _irq_of), label_index, key, len(columns))
    return Layout(named_columns(columns, group, label_index), label_index, key, len(columns))


def named_columns(columns: list[str], group: str, label_index: int | None = None) -> tuple[Column, ...]:
    """One `Column` per value column, named `<group>.<field>` (or the pressure scheme)."""
    named: list[Column] = []
    seen: set[str] = set()
    for i, column in enumerate(columns):
        if i == label_index:
            continue
        pressure = _PRESSURE.match(column)
        if pressure is not None:
            name = _pressure_name(pressure)
        else:
            name = f"{group}.{field_of(group, column)}"
            if name in seen and column.startswith("%"):
                name += "_pct"
        seen.add(name)
        named.append(Column(i, name, unit_of(column)))
    return tuple(named)


def _pressure_name(match: re.Match[str]) -> str:
    """`%scpu-10` -> `pressure.cpu.some.avg10`, the names the /proc sampler uses for the same files."""
    kind = "some" if match[1] == "s" else "full"
    resource = "memory" if match[2] == "mem" else match[2]
    window = f"avg{match[3]}" if match[3] else "interval"
    return f"pressure.{resource}.{kind}.{window}"


def _matrix(
    columns: list[str], label_index: int, name: str, key: str, value_of: Callable[[str], str]
) -> tuple[Column, ...]:
    return tuple(
        Column(i, name, "/s", ((key, value_of(c)),)) for i, c in enumerate(columns) if i != label_index
    )


def _cpu_of(column: str) -> str:
    return column.removeprefix("CPU")


def _irq_of(column: str) -> str:
    return column.removesuffix("/s")
