#!/usr/bin/env python3
"""stallscope-collect: record what a Linux server does during a latency incident, then upload it.

One file, standard library only, Python 3.8 or newer: copy it to the server and run
`python3 stallscope_collect.py record --help`. It drives `perf` (CPU samples, off-CPU scheduler
events, page faults, syscall durations), samples /proc at 20 Hz (and, with --proc-stacks, the
threads' kernel stacks), takes a system snapshot, pairs the clocks so every time can be put on the
wall clock, and uploads the results to a Stallscope console, keeping them in a local spool until the
console has them.
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import glob
import gzip
import http.client
import json
import math
import os
import random
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from typing import IO, Any, Callable, Dict, Sequence, Tuple

__version__ = "0.1.0"
COLLECTOR = "stallscope-collect " + __version__

KINDS = (
    "cpu",
    "offcpu",
    "syscalls",
    "faults",
    "functions",
    "proc",
    "proc-stacks",
    "metrics",
    "app-metrics",
    "snapshot",
    "profile",
)
PERF_MODES = ("cpu", "offcpu", "faults", "syscalls")
DEFAULT_PERF_MODES = ("cpu", "offcpu")

EXIT_OK = 0
EXIT_ERROR = 1
EXIT_USAGE = 2
EXIT_PENDING = 3
"""Recorded, but some uploads are still waiting in the spool."""

PERF_MISSING_HINT = (
    "install it with `apt install linux-perf` (Debian), "
    "`apt install linux-tools-$(uname -r)` (Ubuntu) or `dnf install perf` (Fedora, RHEL)"
)

# perf buffer sizes in pages per CPU (powers of two): small for 49 Hz sampling, larger for
# tracepoints that can fire tens of thousands of times a second.
MMAP_PAGES = {"cpu": 64, "offcpu": 256, "faults": 512, "syscalls": 1024}
MAX_CPU_HZ = 99
# Tracepoint filters go through one ioctl that takes at most a page; keep each well under it so
# the whole query string (the commands travel in `meta`) stays below common 8 KiB URL limits.
MAX_FILTER_CHARS = 1200
# Estimated bytes on disk per recorded event, perf.data plus its `perf script` text.
BYTES_PER_EVENT = {"cpu": 2048, "offcpu": 1536, "faults": 1280, "syscalls": 512}
SYSCALL_EVENTS_PER_S_GUESS = 2000
# Off-CPU tracing costs about a microsecond of CPU per event with its stack (measured with
# bench_overhead.py); each context switch of a target thread is about four events (out, in,
# waking, wakeup). Above this share of a CPU it is left out unless asked for with --offcpu.
OFFCPU_EVENT_COST_S = 1e-6
OFFCPU_EVENTS_PER_SWITCH = 4
OFFCPU_DEFAULT_BUDGET = 0.03
SAMPLE_RECORD_BYTES = 110
THREAD_SCAN_BUDGET = 0.04
"""Share of one CPU the per-thread part of the /proc sampler may use before it thins itself out."""
STACK_DUMP_BYTES = 640
"""Estimated bytes per kernel stack dump: its header and about ten `[<0>] func+0x1a/0x60` lines."""
MAX_STACKS_HZ = 20.0
STACK_SCAN_BUDGET = 0.04
"""Share of one CPU the stack dumper may use before it dumps on every n-th tick only."""
ALL_MODE_D_THREADS_GUESS = 20
PRESSURE_MAX_HZ = 4.0
"""The kernel recomputes the PSI averages every 2 s, and each read of a pressure file walks every
CPU: reading them 20 times a second would cost more than the rest of a tick and add nothing."""

ENV_OF_INTEREST = re.compile(
    r"^(LD_(BIND_NOW|BIND_NOT|PRELOAD|LIBRARY_PATH|AUDIT|DEBUG|DYNAMIC_WEAK)|MALLOC_\w*|GLIBC_TUNABLES"
    r"|TCMALLOC_\w*|JEMALLOC_\w*|MIMALLOC_\w*|JAVA_TOOL_OPTIONS|_JAVA_OPTIONS|JDK_JAVA_OPTIONS"
    r"|GOGC|GOMAXPROCS|GOMEMLIMIT|GODEBUG|PYTHONMALLOC|PYTHONPERFSUPPORT|PYTHONGC\w*|NODE_OPTIONS"
    r"|UV_THREADPOOL_SIZE|OMP_\w*|MKL_NUM_THREADS|OPENBLAS_NUM_THREADS|TZ)$"
)
_SECRET_WORD = r"[\w.-]*(?:pass(?:word|wd)?|secret|token|api[_-]?key|private[_-]?key|credential)[\w.-]*"
_SECRET_ASSIGNMENT = re.compile(r"(?i)(" + _SECRET_WORD + r"[=:])(\S+)")
_SECRET_FLAG = re.compile(r"(?i)^-{1,2}" + _SECRET_WORD + r"$")
_URL_USERINFO = re.compile(r"(\w+://[^/\s:@]+:)([^@\s/]+)(@)")
_AUTH_HEADER = re.compile(r"(?i)(authorization:\s*(?:bearer|basic|token)?\s*)([^\s'\"]+)")
REDACTED = "<redacted>"


# --------------------------------------------------------------------------------------------
# Small helpers


def describe(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"


def fmt_bytes(n: float) -> str:
    for unit in ("B", "KiB", "MiB", "GiB"):
        if abs(n) < 1024 or unit == "GiB":
            return f"{int(n)} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024.0
    return f"{n:.1f} TiB"  # pragma: no cover


def parse_size(text: str) -> int:
    """`256M`, `2G`, `1048576` -> bytes."""
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([kmgt]?)(?:i?b)?\s*", text.lower())
    if not m:
        raise argparse.ArgumentTypeError(f"not a size: {text!r} (examples: 512M, 2G)")
    scale = {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40}[m.group(2)]
    return int(float(m.group(1)) * scale)


def fmt_seconds(value: float) -> str:
    return (f"{value:.3f}").rstrip("0").rstrip(".")


def read_text(path: str, limit: int = 4 << 20) -> str:
    # Small reads: sysctl files refuse a single read of 4 MiB or more (ENOMEM from the kernel).
    chunks: list[bytes] = []
    size = 0
    with open(path, "rb", buffering=0) as f:
        while size < limit:
            chunk = f.read(min(65536, limit - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    return b"".join(chunks).decode("utf-8", "replace")


def read_proc(path: str) -> bytes:
    """A whole /proc file with os-level reads: several times cheaper than open() for tiny files."""
    fd = os.open(path, os.O_RDONLY)
    try:
        chunks: list[bytes] = []
        while True:
            chunk = os.read(fd, 65536)
            if not chunk:
                return b"".join(chunks)
            chunks.append(chunk)
    finally:
        os.close(fd)


def run_text(cmd: Sequence[str], timeout: float = 15.0) -> str:
    proc = subprocess.run(list(cmd), stdin=subprocess.DEVNULL, capture_output=True, timeout=timeout)
    if proc.returncode != 0:
        raise RuntimeError(
            f"`{shlex.join(cmd)}` exited with {proc.returncode}: "
            + proc.stderr.decode("utf-8", "replace").strip()[:500]
        )
    return proc.stdout.decode("utf-8", "replace")


def atomic_write(path: str, data: bytes) -> None:
    """Write to a temporary file beside `path`, fsync, then rename: readers never see half a file."""
    directory = os.path.dirname(path) or "."
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=directory)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        _unlink_quietly(tmp)
        raise
    _fsync_dir(directory)


def write_json(path: str, obj: Any) -> None:
    atomic_write(path, (json.dumps(obj, indent=1, sort_keys=False) + "\n").encode())


def _fsync_dir(directory: str) -> None:
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _unlink_quietly(path: str) -> None:
    with contextlib.suppress(OSError):
        os.unlink(path)


def data_home() -> str:
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return os.path.join(base, "stallscope-collect")


def default_spool() -> str:
    return os.path.join(data_home(), "spool")


def free_bytes(path: str) -> int:
    st = os.statvfs(path)
    return st.f_bavail * st.f_frsize


def existing_parent(path: str) -> str:
    path = os.path.abspath(path)
    while not os.path.exists(path):
        parent = os.path.dirname(path)
        if parent == path:
            break
        path = parent
    return path


class Console:
    """Messages on stderr; a live progress line on a terminal, sparse whole lines otherwise."""

    PLAIN_EVERY_S = 10.0

    def __init__(self, quiet: bool = False, stream: IO[str] | None = None) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.quiet = quiet
        isatty = getattr(self.stream, "isatty", None)
        self.tty = bool(isatty()) if callable(isatty) else False
        self._status_shown = False
        self._last_plain = -math.inf
        self._lock = threading.Lock()

    def _write_line(self, text: str) -> None:
        with self._lock:
            if self._status_shown:
                self.stream.write("\r\x1b[K")
                self._status_shown = False
            self.stream.write(text + "\n")
            self.stream.flush()

    def info(self, text: str) -> None:
        if not self.quiet:
            self._write_line(text)

    def warn(self, text: str) -> None:
        self._write_line("warning: " + text)

    def error(self, text: str) -> None:
        self._write_line("error: " + text)

    def status(self, text: str, final: bool = False) -> None:
        """Progress: rewritten in place on a terminal; one line every few seconds on a pipe or log."""
        if self.quiet:
            return
        with self._lock:
            if self.tty:
                self.stream.write("\r\x1b[K" + text)
                self._status_shown = True
                if final:
                    self.stream.write("\n")
                    self._status_shown = False
                self.stream.flush()
                return
            now = time.monotonic()
            if final or now - self._last_plain >= self.PLAIN_EVERY_S:
                self._last_plain = now
                self.stream.write(text + "\n")
                self.stream.flush()

    def reset_pace(self) -> None:
        self._last_plain = -math.inf


# --------------------------------------------------------------------------------------------
# Clock anchors


def clock_anchor(tries: int = 9) -> dict[str, int]:
    """CLOCK_MONOTONIC and wall-clock readings taken back to back; the tightest of several pairs."""
    best: tuple[int, int, int] | None = None
    for _ in range(tries):
        m0 = time.clock_gettime_ns(time.CLOCK_MONOTONIC)
        real = time.time_ns()
        m1 = time.clock_gettime_ns(time.CLOCK_MONOTONIC)
        gap = m1 - m0
        if best is None or gap < best[0]:
            best = (gap, (m0 + m1) // 2, real)
    assert best is not None
    return {"monotonic_ns": best[1], "realtime_ns": best[2]}


# --------------------------------------------------------------------------------------------
# Redaction and the system snapshot


def redact_value(text: str) -> str:
    """Mask `password=…`-style assignments and URL passwords inside one string."""
    text = _SECRET_ASSIGNMENT.sub(lambda m: m.group(1) + REDACTED, text)
    text = _AUTH_HEADER.sub(lambda m: m.group(1) + REDACTED, text)
    return _URL_USERINFO.sub(lambda m: m.group(1) + REDACTED + m.group(3), text)


def redact_argv(argv: Sequence[str]) -> list[str]:
    """A command line with secrets masked: `--password=x`, `--token x`, `postgres://u:pw@h`."""
    out: list[str] = []
    hide_next = False
    for arg in argv:
        if hide_next:
            out.append(REDACTED)
            hide_next = False
            continue
        if _SECRET_FLAG.match(arg):
            hide_next = True
            out.append(arg)
            continue
        out.append(redact_value(arg))
    return out


def environment_of_interest(environ: bytes) -> dict[str, str]:
    """Only variables that change how a process allocates, links or schedules; never the rest."""
    out: dict[str, str] = {}
    for entry in environ.split(b"\0"):
        name, sep, value = entry.partition(b"=")
        if not sep:
            continue
        key = name.decode("utf-8", "replace")
        if ENV_OF_INTEREST.match(key):
            out[key] = redact_value(value.decode("utf-8", "replace"))[:4096]
    return out


def mapped_libraries(maps: str) -> list[str]:
    paths = set()
    for line in maps.splitlines():
        parts = line.split(None, 5)
        if len(parts) == 6 and parts[5].startswith("/"):
            paths.add(parts[5].strip())
    return sorted(paths)


class Section:
    """Best-effort values: a read that fails becomes None, its error text kept under `errors`."""

    def __init__(self) -> None:
        self.values: dict[str, Any] = {}
        self.errors: dict[str, str] = {}

    def put(self, key: str, read: Callable[[], Any]) -> None:
        try:
            self.values[key] = read()
        except Exception as exc:
            self.values[key] = None
            self.errors[key] = describe(exc)

    def result(self) -> dict[str, Any]:
        out = dict(self.values)
        if self.errors:
            out["errors"] = self.errors
        return out


def _reader(path: str) -> Callable[[], str]:
    return lambda: read_text(path).strip()


def _first_readable(paths: Sequence[str]) -> str:
    errors = []
    for path in paths:
        try:
            return read_text(path).strip()
        except OSError as exc:
            errors.append(describe(exc))
    raise OSError("; ".join(errors))


def _cpu_model() -> str:
    text = read_text("/proc/cpuinfo")
    for key in ("model name", "Processor", "cpu model", "uarch", "cpu"):
        for line in text.splitlines():
            name, sep, value = line.partition(":")
            if sep and name.strip() == key and value.strip():
                return value.strip()
    raise ValueError("no model line in /proc/cpuinfo")


def _governors() -> dict[str, str]:
    found = {}
    for path in sorted(glob.glob("/sys/devices/system/cpu/cpu[0-9]*/cpufreq/scaling_governor")):
        cpu = path.split("/")[5][3:]
        found[cpu] = read_text(path).strip()
    if not found:
        raise FileNotFoundError("no /sys/devices/system/cpu/cpu*/cpufreq (no cpufreq driver, e.g. in a VM)")
    return dict(sorted(found.items(), key=lambda kv: int(kv[0])))


def _sysctl_dir(directory: str, names: Sequence[str] | None = None) -> dict[str, Any]:
    # Reading stat_refresh does work in the kernel; drop_caches and compact_memory are write-only.
    skip = {"stat_refresh", "drop_caches", "compact_memory"}
    out: dict[str, Any] = {}
    errors: dict[str, str] = {}
    for name in names if names is not None else sorted(os.listdir(directory)):
        path = os.path.join(directory, name)
        if name in skip or not os.path.isfile(path):
            continue
        try:
            if not os.stat(path).st_mode & 0o444:
                continue
            out[name] = read_text(path).strip()
        except OSError as exc:
            out[name] = None
            errors[name] = describe(exc)
    if errors:
        out["errors"] = errors
    return out


def _status_fields(pid: int, wanted: Sequence[str]) -> dict[str, str]:
    out = {}
    for line in read_text(f"/proc/{pid}/status").splitlines():
        name, _, value = line.partition(":")
        if name in wanted:
            out[name] = value.strip()
    return out


def _bpf_programs() -> Any:
    tool = shutil.which("bpftool")
    if tool is None:
        raise FileNotFoundError("bpftool is not installed")
    return json.loads(run_text([tool, "prog", "show", "-j"]) or "[]")


def process_section(pid: int) -> dict[str, Any]:
    sec = Section()
    sec.put("cmdline", lambda: redact_argv(read_text(f"/proc/{pid}/cmdline").rstrip("\0").split("\0")))
    sec.put("comm", lambda: read_text(f"/proc/{pid}/comm").strip())
    sec.put("exe", lambda: os.readlink(f"/proc/{pid}/exe"))
    sec.put("threads", lambda: len(os.listdir(f"/proc/{pid}/task")))
    sec.put(
        "status",
        lambda: _status_fields(
            pid,
            ("Name", "State", "Threads", "VmRSS", "VmSwap", "Cpus_allowed_list", "Mems_allowed_list"),
        ),
    )
    sec.put("cgroup", lambda: read_text(f"/proc/{pid}/cgroup").strip().splitlines())
    sec.put("libraries", lambda: mapped_libraries(read_text(f"/proc/{pid}/maps", 64 << 20)))
    sec.put("environment", lambda: environment_of_interest(read_proc(f"/proc/{pid}/environ")))
    return sec.result()


def take_snapshot(host: str, pids: Sequence[int], perf_path: str | None) -> dict[str, Any]:
    taken_at = time.time_ns()
    sections: dict[str, Any] = {}

    kernel = Section()
    kernel.put("uname", lambda: run_text(["uname", "-a"]).strip())
    kernel.put("proc_version", lambda: read_text("/proc/version").strip())
    kernel.put("cmdline", lambda: read_text("/proc/cmdline").strip())
    sections["kernel"] = kernel.result()

    cpu = Section()
    cpu.put("model", _cpu_model)
    cpu.put("count", lambda: os.cpu_count())
    cpu.put("online", lambda: read_text("/sys/devices/system/cpu/online").strip())
    cpu.put("governors", _governors)
    sections["cpu"] = cpu.result()

    thp = Section()
    for name in ("enabled", "defrag", "shmem_enabled", "khugepaged/defrag"):
        thp.put(name.replace("/", "_"), _reader("/sys/kernel/mm/transparent_hugepage/" + name))
    sections["transparent_hugepage"] = thp.result()

    tracing = Section()
    bases = ("/sys/kernel/tracing", "/sys/kernel/debug/tracing")
    tracing.put("set_event", lambda: _first_readable([b + "/set_event" for b in bases]).splitlines())
    tracing.put("current_tracer", lambda: _first_readable([b + "/current_tracer" for b in bases]))
    tracing.put("tracing_on", lambda: _first_readable([b + "/tracing_on" for b in bases]))
    tracing.put("kprobe_events", lambda: _first_readable([b + "/kprobe_events" for b in bases]).splitlines())
    tracing.put("uprobe_events", lambda: _first_readable([b + "/uprobe_events" for b in bases]).splitlines())
    tracing.put("kprobes_list", lambda: read_text("/sys/kernel/debug/kprobes/list").splitlines())
    tracing.put("kprobes_enabled", lambda: read_text("/sys/kernel/debug/kprobes/enabled").strip())
    sections["tracing"] = tracing.result()

    bpf = Section()
    bpf.put("programs", _bpf_programs)
    sections["bpf"] = bpf.result()

    sections["vm"] = _sysctl_dir("/proc/sys/vm")
    sections["kernel_sysctl"] = _sysctl_dir(
        "/proc/sys/kernel",
        (
            "perf_event_paranoid",
            "perf_event_max_stack",
            "perf_event_mlock_kb",
            "perf_event_max_sample_rate",
            "kptr_restrict",
            "numa_balancing",
            "sched_autogroup_enabled",
            "sched_rt_runtime_us",
            "sched_rt_period_us",
            "hung_task_timeout_secs",
            "watchdog_thresh",
            "pid_max",
            "threads-max",
        ),
    )

    perf = Section()
    perf.put("perf_event_paranoid", lambda: int(read_text("/proc/sys/kernel/perf_event_paranoid")))
    if perf_path is not None:
        perf.put("version", lambda: run_text([perf_path, "version"]).strip())
    else:
        perf.put("version", _raise_perf_missing)
    sections["perf"] = perf.result()

    system = Section()
    system.put("loadavg", lambda: read_text("/proc/loadavg").strip())
    system.put("uptime", lambda: read_text("/proc/uptime").strip())
    system.put("block_queues", _block_queues)
    system.put("cgroup_version", lambda: "2" if os.path.exists("/sys/fs/cgroup/cgroup.controllers") else "1")
    sections["system"] = system.result()

    sections["processes"] = {str(pid): process_section(pid) for pid in pids}
    return {
        "stallscope": "snapshot",
        "version": 1,
        "host": host,
        "taken_at_ns": taken_at,
        "sections": sections,
    }


def _raise_perf_missing() -> str:
    raise FileNotFoundError("perf is not installed")


def _block_queues() -> dict[str, dict[str, str]]:
    out: dict[str, dict[str, str]] = {}
    for queue in sorted(glob.glob("/sys/block/*/queue")):
        dev = queue.split("/")[3]
        if dev.startswith(("loop", "ram")):
            continue
        entry = {}
        for name in ("scheduler", "rotational", "nr_requests", "read_ahead_kb"):
            try:
                entry[name] = read_text(os.path.join(queue, name)).strip()
            except OSError:
                continue
        out[dev] = entry
    return out


# --------------------------------------------------------------------------------------------
# /proc parsers (pure)

CPU_FIELDS = ("user", "nice", "system", "idle", "iowait", "irq", "softirq", "steal")
PRESSURE_RESOURCES = ("cpu", "memory", "io")


def parse_proc_stat(text: str) -> dict[str, tuple[int, ...]]:
    """The `cpu` lines of /proc/stat: label (`all`, `0`, `1`…) -> user…steal jiffies."""
    out: dict[str, tuple[int, ...]] = {}
    for line in text.splitlines():
        if not line.startswith("cpu"):
            continue
        parts = line.split()
        values = tuple(int(x) for x in parts[1:9])
        out[parts[0][3:] or "all"] = values + (0,) * (8 - len(values))
    return out


def cpu_percentages(
    before: dict[str, tuple[int, ...]], after: dict[str, tuple[int, ...]]
) -> dict[str, dict[str, float]]:
    """Percent of each CPU's time per state between two /proc/stat readings."""
    out: dict[str, dict[str, float]] = {}
    for cpu, now in after.items():
        prev = before.get(cpu)
        if prev is None:
            continue
        deltas = [max(0, a - b) for a, b in zip(now, prev)]
        total = sum(deltas)
        if total > 0:
            out[cpu] = {name: round(100.0 * d / total, 2) for name, d in zip(CPU_FIELDS, deltas)}
    return out


def parse_meminfo(text: str) -> dict[str, int]:
    """/proc/meminfo: field -> value (KiB for `kB` lines, a count for HugePages_*)."""
    out = {}
    for line in text.splitlines():
        name, sep, rest = line.partition(":")
        parts = rest.split()
        if sep and parts:
            try:
                out[name.strip()] = int(parts[0])
            except ValueError:
                continue
    return out


def parse_pressure(text: str) -> list[tuple[str, str, float]]:
    """A /proc/pressure file: (some|full, avg10|avg60|avg300|total, value)."""
    out = []
    for line in text.splitlines():
        parts = line.split()
        if not parts or parts[0] not in ("some", "full"):
            continue
        for item in parts[1:]:
            key, sep, value = item.partition("=")
            if sep:
                try:
                    out.append((parts[0], key, int(value) if key == "total" else float(value)))
                except ValueError:
                    continue
    return out


DiskCounters = Tuple[int, int, int, int, int]
"""reads completed, sectors read, writes completed, sectors written, ms spent doing I/O."""


def parse_diskstats(text: str) -> dict[str, DiskCounters]:
    out: dict[str, DiskCounters] = {}
    for line in text.splitlines():
        parts = line.split()
        if len(parts) < 14:
            continue
        f = parts[3:]
        try:
            out[parts[2]] = (int(f[0]), int(f[2]), int(f[4]), int(f[6]), int(f[9]))
        except ValueError:
            continue
    return out


def disk_rates(before: DiskCounters, after: DiskCounters, seconds: float) -> dict[str, float]:
    """Per-second rates; /proc/diskstats sectors are always 512 bytes."""
    d = [max(0, a - b) for a, b in zip(after, before)]
    return {
        "reads": round(d[0] / seconds, 3),
        "read_bytes": round(d[1] * 512 / seconds, 1),
        "writes": round(d[2] / seconds, 3),
        "write_bytes": round(d[3] * 512 / seconds, 1),
        "io_ms": round(d[4] / seconds, 3),
    }


def parse_task_stat(raw: bytes) -> tuple[str, str]:
    """(comm, state) from /proc/PID/task/TID/stat; comm may itself hold spaces and parentheses."""
    text = raw.decode("utf-8", "replace")
    left = text.find("(")
    right = text.rfind(")")
    if left < 0 or right < left:
        raise ValueError("malformed stat line")
    return text[left + 1 : right], text[right + 2 : right + 3]


def parse_stat_faults(raw: bytes) -> int:
    """minflt + majflt from a /proc/PID/stat line."""
    rest = raw.decode("utf-8", "replace").rsplit(")", 1)[1].split()
    return int(rest[7]) + int(rest[9])


def parse_ctx_switches(text: str) -> tuple[int, int]:
    voluntary = nonvoluntary = 0
    for line in text.splitlines():
        if line.startswith("voluntary_ctxt_switches:"):
            voluntary = int(line.split()[1])
        elif line.startswith("nonvoluntary_ctxt_switches:"):
            nonvoluntary = int(line.split()[1])
    return voluntary, nonvoluntary


def stallscope_proc_header(host: str, interval_ms: int, pids: Sequence[int]) -> str:
    return json.dumps(
        {
            "stallscope": "proc-sampler",
            "version": 1,
            "host": host,
            "interval_ms": interval_ms,
            "target_pids": list(pids),
        }
    )


def stallscope_record(t: int, name: str, labels: dict[str, str], value: float) -> str:
    return json.dumps({"t": t, "name": name, "labels": labels, "value": value})


class RecordEncoder:
    """stallscope_record(), byte for byte, without a json.dumps per record.

    The sampler writes ~100 records per tick, mostly the same series every time: the part of a
    line between the time and the value is encoded once per series and kept.
    """

    CACHE_LIMIT = 50_000

    def __init__(self) -> None:
        self._middles: dict[tuple[str, tuple[tuple[str, str], ...]], str] = {}

    def middle(self, name: str, labels: dict[str, str]) -> str:
        key = (name, tuple(labels.items()))
        found = self._middles.get(key)
        if found is None:
            if len(self._middles) > self.CACHE_LIMIT:  # thread churn on a busy host
                self._middles.clear()
            found = self._middles[key] = (
                f', "name": {json.dumps(name)}, "labels": {json.dumps(labels)}, "value": '
            )
        return found

    def __call__(self, t: int, name: str, labels: dict[str, str], value: float) -> str:
        # int.__repr__ and float.__repr__ are what json.dumps writes for finite numbers.
        return f'{{"t": {t}{self.middle(name, labels)}{value!r}}}'


# --------------------------------------------------------------------------------------------
# The /proc sampler


class ProcSampler(threading.Thread):
    """System and per-thread series at a fixed rate, written as stallscope-proc JSON lines.

    With target pids every thread of theirs is sampled on every tick. Without (`--all`) only
    threads that are not sleeping (state other than S and I) are written, and no per-thread
    context-switch rates: scanning every thread of a busy host 20 times a second costs too much.
    When the per-thread part costs more than THREAD_SCAN_BUDGET of a CPU it runs on every n-th
    tick only.
    """

    def __init__(self, path: str, host: str, pids: Sequence[int], hz: float) -> None:
        super().__init__(name="proc-sampler", daemon=True)
        self.path = path
        self.host = host
        self.pids = list(pids)
        self.interval = 1.0 / hz
        self.stop_event = threading.Event()
        self.error: str | None = None
        self.ticks = 0
        self.thread_every = 1
        self.pressure_every = max(1, round(hz / PRESSURE_MAX_HZ))
        self._out: IO[str] | None = None
        self._prev_cpu: dict[str, tuple[int, ...]] = {}
        self._prev_disk: dict[str, DiskCounters] = {}
        self._prev_disk_at = 0.0
        self._prev_ctx: dict[int, tuple[float, int, int]] = {}
        self._encode = RecordEncoder()
        self._head = ""
        self._lines: list[str] = []

    def stop(self) -> None:
        self.stop_event.set()
        self.join(timeout=10)

    def run(self) -> None:
        try:
            with open(self.path, "w", encoding="utf-8", buffering=1 << 16) as out:
                self._out = out
                out.write(stallscope_proc_header(self.host, round(self.interval * 1000), self.pids) + "\n")
                next_at = time.monotonic()
                while not self.stop_event.is_set():
                    self.tick()
                    self.ticks += 1
                    next_at += self.interval
                    now = time.monotonic()
                    if next_at < now:  # fell behind (a stalled host): skip the missed ticks
                        next_at = now + self.interval - ((now - next_at) % self.interval)
                    self.stop_event.wait(next_at - now)
                    if self.ticks % 20 == 0:
                        out.flush()
        except Exception as exc:
            self.error = describe(exc)

    def _emit(self, t: int, name: str, labels: dict[str, str], value: float) -> None:
        self._lines.append(self._head + self._encode.middle(name, labels) + repr(value) + "}\n")

    def tick(self) -> None:
        t = time.time_ns()
        now = time.monotonic()
        # Each tick runs on cold caches after its sleep, so it is kept to few Python operations:
        # lines are assembled from cached pieces and written at once.
        self._head = f'{{"t": {t}'
        self._lines = []
        self._sample_cpu(t)
        self._sample_memory(t)
        if self.ticks % self.pressure_every == 0:
            self._sample_pressure(t)
        self._sample_disks(t, now)
        if self.ticks % self.thread_every == 0:
            started = time.perf_counter()
            self._sample_threads(t, now)
            cost = time.perf_counter() - started
            self.thread_every = max(1, min(20, math.ceil(cost / (THREAD_SCAN_BUDGET * self.interval))))
        assert self._out is not None
        self._out.write("".join(self._lines))

    def _sample_cpu(self, t: int) -> None:
        try:
            current = parse_proc_stat(read_proc("/proc/stat").decode())
        except OSError:
            return
        for cpu, values in cpu_percentages(self._prev_cpu, current).items():
            labels = {"cpu": cpu}
            for name, value in values.items():
                self._emit(t, "cpu." + name, labels, value)
        self._prev_cpu = current

    def _sample_memory(self, t: int) -> None:
        try:
            fields = parse_meminfo(read_proc("/proc/meminfo").decode())
        except OSError:
            return
        for name, value in fields.items():
            self._emit(t, "mem." + name, {}, value)

    def _sample_pressure(self, t: int) -> None:
        for resource in PRESSURE_RESOURCES:
            try:
                rows = parse_pressure(read_proc("/proc/pressure/" + resource).decode())
            except OSError:
                continue
            for kind, key, value in rows:
                self._emit(t, f"pressure.{resource}.{kind}.{key}", {}, value)

    def _sample_disks(self, t: int, now: float) -> None:
        try:
            current = parse_diskstats(read_proc("/proc/diskstats").decode())
        except OSError:
            return
        seconds = now - self._prev_disk_at
        if self._prev_disk and seconds > 0:
            for dev, counters in current.items():
                prev = self._prev_disk.get(dev)
                if prev is None or not any(counters):
                    continue
                for name, value in disk_rates(prev, counters, seconds).items():
                    self._emit(t, "disk." + name, {"device": dev}, value)
        self._prev_disk = current
        self._prev_disk_at = now

    def _sample_threads(self, t: int, now: float) -> None:
        if self.pids:
            seen = set()
            for pid in self.pids:
                for tid in _list_tids(pid):
                    seen.add(tid)
                    self._sample_one_thread(t, now, pid, tid)
            for gone in set(self._prev_ctx) - seen:
                del self._prev_ctx[gone]
            return
        for pid in _list_pids():
            for tid in _list_tids(pid):
                try:
                    comm, state = parse_task_stat(read_proc(f"/proc/{pid}/task/{tid}/stat"))
                except (OSError, ValueError):
                    continue
                if state not in ("S", "I"):
                    labels = {"pid": str(pid), "tid": str(tid), "comm": comm, "state": state}
                    self._emit(t, "thread.state", labels, 1)

    def _sample_one_thread(self, t: int, now: float, pid: int, tid: int) -> None:
        base = f"/proc/{pid}/task/{tid}/"
        try:
            comm, state = parse_task_stat(read_proc(base + "stat"))
            voluntary, nonvoluntary = parse_ctx_switches(
                read_proc(base + "status").decode("utf-8", "replace")
            )
        except (OSError, ValueError):
            return
        self._emit(t, "thread.state", {"pid": str(pid), "tid": str(tid), "comm": comm, "state": state}, 1)
        prev = self._prev_ctx.get(tid)
        self._prev_ctx[tid] = (now, voluntary, nonvoluntary)
        if prev is None or now <= prev[0]:
            return
        seconds = now - prev[0]
        labels = {"pid": str(pid), "tid": str(tid), "comm": comm}
        self._emit(
            t, "thread.ctx_switches.voluntary", labels, round(max(0, voluntary - prev[1]) / seconds, 3)
        )
        self._emit(
            t, "thread.ctx_switches.nonvoluntary", labels, round(max(0, nonvoluntary - prev[2]) / seconds, 3)
        )


# --------------------------------------------------------------------------------------------
# Kernel stack dumps (--proc-stacks)


def stack_dump_header(t_ns: int, pid: int, tid: int, state: str, comm: str) -> str:
    """The line before each dump, as the console's `proc-stacks` importer reads it (comm last: it
    may hold spaces)."""
    return f"# ts_us={t_ns // 1000} pid={pid} tid={tid} state={state} comm={comm}\n"


def stacks_unreadable() -> str | None:
    """Why this process cannot read kernel stacks, or None when it can.

    The kernel asks for CAP_SYS_ADMIN to read any task's stack file, its caller's own included,
    so reading our own is a fair probe.
    """
    try:
        read_proc(f"/proc/self/task/{threading.get_native_id()}/stack")
    except PermissionError:
        return "--proc-stacks: reading /proc/PID/task/TID/stack needs root (CAP_SYS_ADMIN)"
    except OSError as exc:
        return f"--proc-stacks: this kernel has no readable stack files ({describe(exc)})"
    return None


class StackDumper(threading.Thread):
    """The kernel stack of threads, HZ times a second, from /proc/PID/task/TID/stack.

    A poor man's off-CPU profile the console reads as sampled blocking stacks (format
    `proc-stacks`): per thread and tick a `stack_dump_header` line, the state read from its stat
    just before, then the stack file as the kernel prints it (empty for a thread that is running).
    With target pids every thread of theirs is dumped; without (`--all`) only threads in state D,
    since a dump of every sleeping thread on the host says little and costs much. When a tick costs
    more than STACK_SCAN_BUDGET of a CPU, the dumper runs on every n-th tick only.
    """

    def __init__(self, path: str, pids: Sequence[int], hz: float) -> None:
        super().__init__(name="stack-dumper", daemon=True)
        self.path = path
        self.pids = list(pids)
        self.interval = 1.0 / hz
        self.stop_event = threading.Event()
        self.error: str | None = None
        self.ticks = 0
        self.dumps = 0
        self.every = 1

    def stop(self) -> None:
        self.stop_event.set()
        self.join(timeout=10)

    def run(self) -> None:
        try:
            with open(self.path, "w", encoding="utf-8", errors="replace", buffering=1 << 16) as out:
                next_at = time.monotonic()
                while not self.stop_event.is_set():
                    if self.ticks % self.every == 0:
                        started = time.perf_counter()
                        out.write(self.tick())
                        cost = time.perf_counter() - started
                        self.every = max(1, min(20, math.ceil(cost / (STACK_SCAN_BUDGET * self.interval))))
                    self.ticks += 1
                    next_at += self.interval
                    now = time.monotonic()
                    if next_at < now:  # fell behind: skip the missed ticks rather than bunch them
                        next_at = now + self.interval - ((now - next_at) % self.interval)
                    self.stop_event.wait(next_at - now)
        except Exception as exc:
            self.error = describe(exc)

    def tick(self) -> str:
        """One round of dumps as text."""
        parts: list[str] = []
        for pid in self.pids or _list_pids():
            for tid in _list_tids(pid):
                dump = self.dump(pid, tid, blocked_only=not self.pids)
                if dump is not None:
                    parts.append(dump)
        self.dumps += len(parts)
        return "".join(parts)

    def dump(self, pid: int, tid: int, blocked_only: bool) -> str | None:
        """One thread's header and stack; None when it exited (or is not blocked and only blocked
        threads are wanted)."""
        task = f"/proc/{pid}/task/{tid}/"
        try:
            comm, state = parse_task_stat(read_proc(task + "stat"))
            if blocked_only and state != "D":
                return None
            t = time.time_ns()
            stack = read_proc(task + "stack").decode("utf-8", "replace")
        except (OSError, ValueError):  # the thread exited between the listing and the reads
            return None
        comm = comm.replace("\n", " ").replace("\r", " ")
        return stack_dump_header(t, pid, tid, state, comm) + stack


def _list_tids(pid: int) -> list[int]:
    try:
        return sorted(int(x) for x in os.listdir(f"/proc/{pid}/task"))
    except (OSError, ValueError):
        return []


def _list_pids() -> list[int]:
    return [int(x) for x in os.listdir("/proc") if x.isdigit()]


# --------------------------------------------------------------------------------------------
# --metrics-cmd

_METRIC_LINE = re.compile(r"^([A-Za-z_:][\w:./-]*)(?:\{(.*)\})?\s+(\S+)(?:\s+-?\d+)?\s*$")
_METRIC_LABEL = re.compile(r'([A-Za-z_]\w*)\s*=\s*"((?:[^"\\]|\\.)*)"')

Metric = Tuple[str, Dict[str, str], float]


def _number(value: Any) -> float | None:
    if isinstance(value, bool):
        return float(value)
    if isinstance(value, (int, float)):
        number = float(value)
    elif isinstance(value, str):
        try:
            number = float(value)
        except ValueError:
            return None
    else:
        return None
    if math.isnan(number) or math.isinf(number):
        return None
    return int(number) if number.is_integer() and abs(number) < 2**53 else number


def _flatten(prefix: str, obj: Any, out: list[Metric]) -> None:
    if isinstance(obj, dict):
        for key, value in obj.items():
            _flatten(prefix + "." + str(key) if prefix else str(key), value, out)
        return
    number = _number(obj)
    if number is not None and prefix:
        out.append((prefix, {}, number))


def parse_metric_line(line: str) -> list[Metric]:
    """One line of --metrics-cmd output: a JSON object, or `name value`, or `name{k="v"} value`."""
    line = line.strip()
    if not line or line.startswith("#"):
        return []
    if line.startswith("{"):
        obj = json.loads(line)
        if not isinstance(obj, dict):
            return []
        if "name" in obj and "value" in obj:
            value = _number(obj["value"])
            labels = obj.get("labels") or {}
            if value is None or not isinstance(labels, dict):
                return []
            return [(str(obj["name"]), {str(k): str(v) for k, v in labels.items()}, value)]
        out: list[Metric] = []
        _flatten("", obj, out)
        return out
    m = _METRIC_LINE.match(line)
    if not m:
        raise ValueError('not `name value`, `name{label="v"} value` or a JSON object')
    value = _number(m.group(3))
    if value is None:
        return []
    labels = {
        k: v.replace('\\"', '"').replace("\\\\", "\\") for k, v in _METRIC_LABEL.findall(m.group(2) or "")
    }
    return [(m.group(1), labels, value)]


class MetricsRunner(threading.Thread):
    """Runs a command every interval and keeps what it prints as stallscope-proc records (t = now)."""

    def __init__(self, path: str, host: str, pids: Sequence[int], command: str, interval: float) -> None:
        super().__init__(name="metrics-cmd", daemon=True)
        self.path = path
        self.host = host
        self.pids = list(pids)
        self.command = command
        self.interval = interval
        self.stop_event = threading.Event()
        self.problems: list[str] = []
        self.runs = 0
        self.records = 0

    def stop(self) -> None:
        self.stop_event.set()
        self.join(timeout=self.interval + 15)

    def _problem(self, text: str) -> None:
        if len(self.problems) < 10 and text not in self.problems:
            self.problems.append(text)

    def run(self) -> None:
        try:
            with open(self.path, "w", encoding="utf-8") as out:
                out.write(stallscope_proc_header(self.host, round(self.interval * 1000), self.pids) + "\n")
                next_at = time.monotonic()
                while not self.stop_event.is_set():
                    self._once(out)
                    out.flush()
                    next_at += self.interval
                    now = time.monotonic()
                    if next_at < now:
                        next_at = now
                    self.stop_event.wait(next_at - now)
        except Exception as exc:
            self._problem(describe(exc))

    def _once(self, out: IO[str]) -> None:
        self.runs += 1
        try:
            proc = subprocess.run(
                self.command,
                shell=True,
                stdin=subprocess.DEVNULL,
                capture_output=True,
                timeout=max(10.0, self.interval * 5),
            )
        except subprocess.TimeoutExpired:
            self._problem("the metrics command timed out")
            return
        t = time.time_ns()
        if proc.returncode != 0:
            self._problem(
                f"the metrics command exited with {proc.returncode}: "
                + proc.stderr.decode("utf-8", "replace").strip()[:200]
            )
        for number, line in enumerate(proc.stdout.decode("utf-8", "replace").splitlines(), 1):
            try:
                metrics = parse_metric_line(line)
            except ValueError as exc:
                self._problem(f"line {number} of its output: {exc}: {line[:120]!r}")
                continue
            for name, labels, value in metrics:
                out.write(stallscope_record(t, name, labels, value) + "\n")
                self.records += 1


# --------------------------------------------------------------------------------------------
# perf: discovery, permissions, command lines


@dataclass
class Perf:
    path: str
    version: str


SCRIPT_FIELDS = "+pid,+ip,+sym,+dso"
"""`perf script` fields beside its defaults: pid/tid headers (the default prints the tid only, so
thread views could not name a thread's process), and the stack fields spelled out, because perf
6.1 drops every callchain once any `-F +field` is given without them."""
PERF_TOD_SINCE = (5, 11)
"""`perf script -F +tod` (the wall-clock column, from a `-k` recording's clock data) is in perf 5.11+."""


def perf_prints_tod(version: str) -> bool:
    """Whether `perf version` output ("perf version 6.1.192") names a perf with the `tod` field."""
    found = re.search(r"(\d+)\.(\d+)", version)
    return found is not None and (int(found.group(1)), int(found.group(2))) >= PERF_TOD_SINCE


def find_perf() -> tuple[Perf | None, str]:
    """(perf, "") or (None, why not)."""
    path = shutil.which("perf")
    if path is None:
        return None, "perf is not installed: " + PERF_MISSING_HINT
    try:
        proc = subprocess.run(
            [path, "version"],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            timeout=20,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return None, f"perf ({path}) does not run: {describe(exc)}; {PERF_MISSING_HINT}"
    text = proc.stdout.decode("utf-8", "replace").strip()
    if proc.returncode != 0:
        # Ubuntu's /usr/bin/perf is a wrapper that fails when the tools for this kernel are missing.
        return None, f"perf ({path}) does not run for this kernel: {text[:300]}; {PERF_MISSING_HINT}"
    return Perf(path, text), ""


def read_paranoid() -> int | None:
    try:
        return int(read_text("/proc/sys/kernel/perf_event_paranoid").strip())
    except (OSError, ValueError):
        return None


def perf_privileged() -> bool:
    """Root, or CAP_PERFMON / CAP_SYS_ADMIN in the effective set: perf_event_paranoid does not apply."""
    if os.geteuid() == 0:
        return True
    try:
        for line in read_text("/proc/self/status").splitlines():
            if line.startswith("CapEff:"):
                caps = int(line.split()[1], 16)
                return bool(caps & (1 << 38) or caps & (1 << 21))
    except (OSError, ValueError):
        pass
    return False


MODE_LABELS = {
    "cpu": "CPU sampling (--cpu)",
    "offcpu": "off-CPU tracing (--offcpu, sched:* tracepoints)",
    "faults": "page-fault sampling (--faults)",
    "syscalls": "syscall tracing (--syscalls, raw_syscalls:* tracepoints)",
}


def permission_problems(
    modes: Sequence[str], system_wide: bool, paranoid: int | None, privileged: bool
) -> tuple[dict[str, str], list[str]]:
    """Which perf modes kernel.perf_event_paranoid forbids an unprivileged user, and warnings."""
    refused: dict[str, str] = {}
    warnings: list[str] = []
    if privileged or paranoid is None:
        return refused, warnings
    for mode in modes:
        tracepoints = mode in ("offcpu", "syscalls")
        # The offcpu mode traces system-wide (filtered to the target's threads) whenever it can.
        need = -1 if tracepoints else (0 if system_wide else 2)
        if paranoid > need:
            extra = " and read access to /sys/kernel/tracing" if tracepoints else ""
            refused[mode] = (
                f"{MODE_LABELS[mode]} needs root (or CAP_PERFMON{extra}) or "
                f"kernel.perf_event_paranoid <= {need}; it is {paranoid} here. Run as root, or allow it with "
                f"`sudo sysctl -w kernel.perf_event_paranoid={need}`"
            )
    if paranoid >= 2 and any(m in modes and m not in refused for m in ("cpu", "faults")):
        warnings.append(
            f"kernel.perf_event_paranoid is {paranoid}: stacks of a non-root user have no kernel frames "
            "(set it to 1 or run as root to see them)"
        )
    return refused, warnings


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


@dataclass
class PerfJob:
    """One perf recording: the record command, the command that turns it into text, and its files."""

    kind: str
    text_path: str
    record_cmd: list[str]
    convert_cmd: list[str] | None
    perf_clock: str
    data_path: str | None = None
    setup_cmds: list[list[str]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    proc: subprocess.Popen[bytes] | None = None
    log_path: str = ""
    returncode: int | None = None

    @property
    def commands(self) -> list[list[str]]:
        return self.setup_cmds + [self.record_cmd] + ([self.convert_cmd] if self.convert_cmd else [])


@dataclass
class Plan:
    """What a record will run, decided before anything starts."""

    jobs: list[PerfJob]
    probe_cmds: list[list[str]]
    skipped: dict[str, str]
    warnings: list[str]


class PerfProber:
    """Tries perf command lines against `true` to learn what this kernel and perf accept."""

    def __init__(self, perf: Perf, workdir: str) -> None:
        self.perf = perf
        self.workdir = workdir
        self.commands: list[list[str]] = []

    def record_ok(self, args: Sequence[str], clock: str | None) -> tuple[bool, str]:
        cmd = [self.perf.path, "record", "-q"]
        if clock:
            cmd += ["-k", clock]
        cmd += [*list(args), "-o", os.path.join(self.workdir, "probe.data"), "--", "true"]
        self.commands.append(cmd)
        try:
            proc = subprocess.run(
                cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=60
            )
        except subprocess.TimeoutExpired:
            return False, "timed out"
        return proc.returncode == 0, _tail(proc.stderr.decode("utf-8", "replace"))

    def best_clock(self, args: Sequence[str]) -> tuple[str | None, str]:
        """('monotonic'|'default', "") when perf accepts `args`, else (None, perf's message)."""
        ok, message = self.record_ok(args, "CLOCK_MONOTONIC")
        if ok:
            return "monotonic", ""
        ok, plain_message = self.record_ok(args, None)
        if ok:
            return "default", ""
        return None, plain_message or message

    def tracepoint_exists(self, name: str) -> bool:
        system, _, event = name.partition(":")
        for base in ("/sys/kernel/tracing", "/sys/kernel/debug/tracing"):
            if os.path.isdir(os.path.join(base, "events", system)):
                return os.path.isdir(os.path.join(base, "events", system, event))
        cmd = [self.perf.path, "list", name]
        self.commands.append(cmd)
        try:
            return name in run_text(cmd, timeout=60)
        except (OSError, RuntimeError, subprocess.TimeoutExpired):
            return False

    def syscall_id_filter(self, names: Sequence[str]) -> tuple[str | None, str]:
        """perf trace's own kernel filter for these syscall names (`id == 202 || …`), from -v."""
        cmd = [self.perf.path, "trace", "-v", "-e", ",".join(names), "--", "true"]
        self.commands.append(cmd)
        try:
            proc = subprocess.run(
                cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=60
            )
        except subprocess.TimeoutExpired:
            return None, "perf trace timed out"
        text = proc.stdout.decode("utf-8", "replace")
        m = re.search(r"event qualifier tracepoint filter: (.+)", text)
        if proc.returncode == 0 and m and re.fullmatch(r"[\sid=|0-9!&()]+", m.group(1).strip()):
            return m.group(1).strip(), ""
        bad = re.search(r"(Invalid syscall[^\n]*|Error:[^\n]*)", text)
        return None, bad.group(1).strip() if bad else _tail(text)


def _tail(text: str, lines: int = 4) -> str:
    kept = [ln for ln in text.strip().splitlines() if ln.strip()]
    return " / ".join(kept[-lines:])


@dataclass
class RecordOptions:
    outdir: str
    pids: list[int]
    system_wide: bool
    duration: float
    modes: list[str]
    cpu_hz: int
    syscalls: list[str]
    max_data_bytes: int
    system_wide_ok: bool = False
    """May perf sample every CPU (root, CAP_PERFMON or perf_event_paranoid <= 0)?"""


def plan_perf_jobs(perf: Perf, prober: PerfProber, opts: RecordOptions, explicit: bool) -> Plan:
    """Decide every perf command line: events this kernel has, clocks it accepts, filters that fit."""
    jobs: list[PerfJob] = []
    skipped: dict[str, str] = {}
    warnings: list[str] = []
    target = ["-a"] if opts.system_wide else ["-p", ",".join(str(p) for p in opts.pids)]
    tail_size = ["--max-size", f"{max(16, opts.max_data_bytes >> 20)}M"]

    def path(name: str) -> str:
        return os.path.join(opts.outdir, name)

    def timed(data: str) -> list[str]:
        return ["-N", *tail_size, "-o", data, "--", "sleep", fmt_seconds(opts.duration)]

    for mode in opts.modes:
        notes: list[str] = []
        convert_filter: list[str] = []
        if mode == "cpu":
            events = ["-F", str(opts.cpu_hz), "-g", "-m", str(MMAP_PAGES["cpu"])]
            scope = target
            if not opts.system_wide and opts.system_wide_ok:
                # Per-process (-p) events are switched in and out with the target at every context
                # switch, which halves the speed of a switch-heavy process; sampling every CPU costs
                # a fixed 49 Hz per CPU. perf script keeps only the target's samples.
                scope = ["-a"]
                convert_filter = ["--pid", ",".join(str(p) for p in opts.pids)]
                notes = ["sampled on every CPU, the target's samples kept by perf script --pid"]
        elif mode == "offcpu":
            names = ["sched:sched_switch", "sched:sched_wakeup"]
            if prober.tracepoint_exists("sched:sched_waking"):
                names.append("sched:sched_waking")
            events, scope, notes = _offcpu_events(names, opts, target)
        elif mode == "faults":
            events = ["-e", "page-faults", "-c", "1", "-g", "-m", str(MMAP_PAGES["faults"])]
            scope = target
        else:
            job, reason = _plan_syscalls(perf, prober, opts, target, timed)
            if job is None:
                skipped[mode] = reason
            else:
                jobs.append(job)
            continue
        clock, message = prober.best_clock(events)
        if clock is None:
            skipped[mode] = f"perf refused {MODE_LABELS[mode]}: {message}"
            continue
        data = path(mode + ".perf.data")
        record = [perf.path, "record"] + (["-k", "CLOCK_MONOTONIC"] if clock == "monotonic" else [])
        record += events + scope + timed(data)
        text = path(mode + ".perf.txt")
        fields = SCRIPT_FIELDS
        if clock == "monotonic" and perf_prints_tod(perf.version):
            # perf's wall-clock column makes the text file align itself, wherever it is uploaded.
            fields += ",+tod"
        convert = [perf.path, "script", "-i", data, *convert_filter, "-F", fields]
        job = PerfJob(mode, text, record, convert, clock, data, notes=notes)
        if clock == "default":
            job.warnings.append("perf refused -k CLOCK_MONOTONIC here; times are on perf's default clock")
        jobs.append(job)
    if skipped and explicit:
        warnings.extend(f"{m}: {r}" for m, r in skipped.items())
    return Plan(jobs, prober.commands, skipped, warnings)


def _offcpu_events(
    names: Sequence[str], opts: RecordOptions, target: list[str]
) -> tuple[list[str], list[str], list[str]]:
    """Scheduler events, for a target process traced system-wide with a filter on its threads.

    Per-process (`-p`) recording only sees events raised in the target's own context: every
    switch-out, but never the switch back in (raised by whichever task leaves the CPU) nor most
    wakeups (raised by the waker), so off-CPU time could not be measured. System-wide with a
    tracepoint filter on the target's thread ids sees both ends; threads created after the start
    are not in the filter, and a filter that would not fit falls back to `-p`.
    """
    pages = ["-g", "-m", str(MMAP_PAGES["offcpu"])]
    if opts.system_wide:
        return [arg for name in names for arg in ("-e", name)] + pages, ["-a"], []
    tids = [tid for pid in opts.pids for tid in _list_tids(pid)]
    switch = tid_filter(("prev_pid", "next_pid"), tids)
    wake = tid_filter(("pid",), tids)
    if tids and len(switch) <= MAX_FILTER_CHARS:
        events: list[str] = []
        for name in names:
            events += ["-e", name, "--filter", switch if name.endswith("switch") else wake]
        return (
            events + pages,
            ["-a"],
            [f"system-wide, filtered to the {len(tids)} threads present at start"],
        )
    note = f"per-process (-p): {len(tids)} threads do not fit a tracepoint filter; switch-ins are not seen"
    return [arg for name in names for arg in ("-e", name)] + pages, target, [note]


def _plan_syscalls(
    perf: Perf,
    prober: PerfProber,
    opts: RecordOptions,
    target: list[str],
    timed: Callable[[str], list[str]],
) -> tuple[PerfJob | None, str]:
    """`perf record` of raw_syscalls filtered like perf trace would, replayed by `perf trace -i`.

    Live `perf trace` cannot take -k CLOCK_MONOTONIC and leaves out comm/tid for single-threaded
    targets; recording first and replaying gives both, with one duration per call as before.
    """
    text = os.path.join(opts.outdir, "syscalls.trace.txt")
    id_filter, message = prober.syscall_id_filter(opts.syscalls)
    setup = prober.commands[-1:]
    if id_filter is not None:
        events = ["-R", "-c", "1", "-m", str(MMAP_PAGES["syscalls"])]
        for name in ("raw_syscalls:sys_enter", "raw_syscalls:sys_exit"):
            events += ["-e", name, "--filter", id_filter]
        clock, probe_message = prober.best_clock(events)
        if clock is not None:
            data = os.path.join(opts.outdir, "syscalls.perf.data")
            record = [perf.path, "record"] + (["-k", "CLOCK_MONOTONIC"] if clock == "monotonic" else [])
            record += events + target + timed(data)
            convert = [perf.path, "trace", "-i", data, "-T", "-o", text]
            job = PerfJob("syscalls", text, record, convert, clock, data, setup_cmds=list(setup))
            return job, ""
        message = probe_message
    elif message.startswith(("Invalid syscall", "Error")):
        return None, f"perf trace: {message}"
    # Fallback: live perf trace on perf's default clock.
    record = [perf.path, "trace", "-T", "-e", ",".join(opts.syscalls), "-m", str(MMAP_PAGES["syscalls"])]
    record += [*target, "-o", text, "--", "sleep", fmt_seconds(opts.duration)]
    job = PerfJob("syscalls", text, record, None, "default", None, setup_cmds=list(setup))
    job.warnings.append(f"recorded with live perf trace ({message}); times are on perf's default clock")
    return job, ""


# --------------------------------------------------------------------------------------------
# Disk budget


@dataclass
class Rates:
    ncpu: int
    threads: int
    ctx_per_s: float
    faults_per_s: float
    disks: int
    meminfo_fields: int


def measure_rates(pids: Sequence[int], window: float = 0.25) -> Rates:
    """Context switches and page faults per second right now: system-wide, or summed over `pids`."""

    def counters() -> tuple[float, float]:
        if not pids:
            ctx = faults = 0.0
            for line in read_text("/proc/stat").splitlines():
                if line.startswith("ctxt "):
                    ctx = float(line.split()[1])
            for line in read_text("/proc/vmstat").splitlines():
                if line.startswith("pgfault "):
                    faults = float(line.split()[1])
            return ctx, faults
        ctx = faults = 0.0
        for pid in pids:
            for tid in _list_tids(pid):
                try:
                    v, n = parse_ctx_switches(read_text(f"/proc/{pid}/task/{tid}/status"))
                except OSError:
                    continue
                ctx += v + n
            with contextlib.suppress(OSError, ValueError, IndexError):
                faults += parse_stat_faults(read_proc(f"/proc/{pid}/stat"))
        return ctx, faults

    try:
        c0, f0 = counters()
        time.sleep(window)
        c1, f1 = counters()
    except OSError:
        c0 = c1 = f0 = f1 = 0.0
    threads = sum(len(_list_tids(p)) for p in pids)
    try:
        disks = len([d for d, c in parse_diskstats(read_text("/proc/diskstats")).items() if any(c)])
        meminfo = len(parse_meminfo(read_text("/proc/meminfo")))
    except OSError:
        disks, meminfo = 4, 60
    # Threads that exit between the readings take their counts with them: never below zero.
    ctx_rate = max(0.0, (c1 - c0) / window)
    fault_rate = max(0.0, (f1 - f0) / window)
    return Rates(os.cpu_count() or 1, threads, ctx_rate, fault_rate, disks, meminfo)


def estimate_bytes(
    modes: Sequence[str],
    rates: Rates,
    duration: float,
    cpu_hz: int,
    sample_hz: float,
    system_wide: bool,
    proc_sampler: bool,
    stacks_hz: float = 0.0,
) -> dict[str, int]:
    """Rough bytes on disk per output, from the current rates and generous sizes per event."""
    out: dict[str, int] = {}
    cpus = rates.ncpu  # CPU samples are taken on every CPU whenever perf may (see plan_perf_jobs)
    per_second = {
        "cpu": cpu_hz * cpus,
        # one switch out, one switch in and a wakeup or two per context switch
        "offcpu": rates.ctx_per_s * 4,
        "faults": rates.faults_per_s,
        "syscalls": SYSCALL_EVENTS_PER_S_GUESS,
    }
    for mode in modes:
        out[mode] = int(per_second[mode] * BYTES_PER_EVENT[mode] * duration * 1.5)
    if proc_sampler:
        threads = rates.threads * 3 if not system_wide else 50
        lines = 8 * (rates.ncpu + 1) + rates.meminfo_fields + 24 + 5 * rates.disks + threads
        out["proc"] = int(lines * SAMPLE_RECORD_BYTES * sample_hz * duration * 1.2)
    if stacks_hz > 0:
        threads = rates.threads if not system_wide else ALL_MODE_D_THREADS_GUESS
        out["proc-stacks"] = int(threads * STACK_DUMP_BYTES * stacks_hz * duration * 1.2)
    return out


# --------------------------------------------------------------------------------------------
# Spool and upload


@dataclass
class SpoolEntry:
    """A compressed capture waiting to be sent, and the small JSON sidecar that says where to."""

    sidecar_path: str
    body_path: str
    info: dict[str, Any]

    @property
    def label(self) -> str:
        return str(self.info.get("filename"))


class Spool:
    """A directory of `<id>.gz` bodies with `<id>.json` sidecars; a sidecar is written last."""

    ORPHAN_AGE_S = 3600.0

    def __init__(self, path: str) -> None:
        self.path = os.path.abspath(os.path.expanduser(path))

    def ensure(self) -> None:
        os.makedirs(self.path, mode=0o700, exist_ok=True)

    def add(self, source: str, info: dict[str, Any], console: Console) -> SpoolEntry:
        """Stream-compress `source` into the spool (gzip bodies are copied as they are)."""
        self.ensure()
        safe_name = re.sub(r"[^\w.-]", "_", os.path.basename(source))[:80]
        base = f"{time.time_ns()}-{os.getpid()}-{safe_name}"
        body = os.path.join(self.path, base + ".gz")
        sidecar = os.path.join(self.path, base + ".json")
        fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=self.path)
        try:
            with os.fdopen(fd, "wb") as raw, open(source, "rb") as src:
                head = src.read(2)
                src.seek(0)
                if head == b"\x1f\x8b":
                    shutil.copyfileobj(src, raw, 1 << 20)
                else:
                    with gzip.GzipFile(filename="", mode="wb", fileobj=raw, compresslevel=6, mtime=0) as gz:
                        shutil.copyfileobj(src, gz, 1 << 20)
                raw.flush()
                os.fsync(raw.fileno())
            os.replace(tmp, body)
        except BaseException:
            _unlink_quietly(tmp)
            raise
        info = dict(info)
        info.update({"version": 1, "source": os.path.abspath(source), "spooled_at_ns": time.time_ns()})
        info.setdefault("attempts", 0)
        write_json(sidecar, info)
        console.info(f"spooled {info['filename']} ({fmt_bytes(os.path.getsize(body))} compressed)")
        return SpoolEntry(sidecar, body, info)

    def entries(self) -> list[SpoolEntry]:
        if not os.path.isdir(self.path):
            return []
        found = []
        for name in sorted(os.listdir(self.path)):
            if not name.endswith(".json") or name.startswith("."):
                continue
            sidecar = os.path.join(self.path, name)
            body = sidecar[: -len(".json")] + ".gz"
            try:
                info = json.loads(read_text(sidecar))
            except (OSError, ValueError):
                continue
            if isinstance(info, dict) and os.path.exists(body):
                found.append(SpoolEntry(sidecar, body, info))
        return found

    def remove(self, entry: SpoolEntry) -> None:
        # Sidecar first: a kill in between leaves an orphan body, which is never sent twice.
        _unlink_quietly(entry.sidecar_path)
        _unlink_quietly(entry.body_path)

    def update(self, entry: SpoolEntry) -> None:
        write_json(entry.sidecar_path, entry.info)

    def clean(self) -> None:
        """Drop temporary files and bodies without a sidecar left by a process killed mid-way."""
        if not os.path.isdir(self.path):
            return
        now = time.time()
        for name in os.listdir(self.path):
            path = os.path.join(self.path, name)
            orphan = name.endswith(".gz") and not os.path.exists(path[: -len(".gz")] + ".json")
            if name.startswith(".tmp-") or orphan:
                try:
                    if now - os.path.getmtime(path) > self.ORPHAN_AGE_S:
                        os.unlink(path)
                except OSError:
                    pass

    def lock(self, blocking: bool) -> IO[str] | None:
        """An exclusive lock on the spool for one sender at a time; None when busy (non-blocking)."""
        self.ensure()
        handle = open(os.path.join(self.path, ".lock"), "a")  # noqa: SIM115 - held until the caller closes it
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | (0 if blocking else fcntl.LOCK_NB))
        except OSError:
            handle.close()
            return None
        return handle


class ProgressReader:
    """A file-like request body that reports how much of it has been sent."""

    def __init__(self, f: IO[bytes], size: int, report: Callable[[int, int], None]) -> None:
        self.f = f
        self.size = size
        self.sent = 0
        self.report = report

    def read(self, n: int = -1) -> bytes:
        chunk = self.f.read(n if n and n > 0 else 1 << 16)
        self.sent += len(chunk)
        self.report(self.sent, self.size)
        return chunk


@dataclass
class Attempt:
    ok: bool
    retryable: bool
    message: str
    status: int | None = None
    response: dict[str, Any] | None = None
    retry_after: float | None = None


@dataclass
class UploadSettings:
    token: str | None
    retries: int = 5
    retry_delay: float = 1.0
    timeout: float = 120.0
    server_override: str | None = None


def capture_url(server: str, info: dict[str, Any]) -> str:
    query: list[tuple[str, str]] = [
        ("incident", str(info["incident"])),
        ("filename", str(info["filename"])),
        ("host", str(info["host"])),
        ("kind", str(info["kind"])),
    ]
    if info.get("clock") is not None:
        query.append(("clock", json.dumps(info["clock"], separators=(",", ":"))))
    query.append(("meta", json.dumps(info.get("meta") or {}, separators=(",", ":"))))
    return server.rstrip("/") + "/api/collector/captures?" + urllib.parse.urlencode(query)


def _detail(body: bytes) -> str:
    try:
        parsed = json.loads(body.decode("utf-8", "replace"))
    except ValueError:
        return body.decode("utf-8", "replace").strip()[:300] or "(no body)"
    if isinstance(parsed, dict) and "detail" in parsed:
        detail = parsed["detail"]
        return detail if isinstance(detail, str) else json.dumps(detail)[:500]
    return json.dumps(parsed)[:300]


def post_once(url: str, body_path: str, token: str, timeout: float, console: Console, label: str) -> Attempt:
    size = os.path.getsize(body_path)
    started = time.monotonic()
    shown = [started]

    def report(sent: int, total: int) -> None:
        now = time.monotonic()
        if total > 0 and now - started > 0.5 and now - shown[0] >= 0.1:
            shown[0] = now
            console.status(f"uploading {label}: {100 * sent // total}% of {fmt_bytes(total)}")

    headers = {
        "Authorization": "Bearer " + token,
        "Content-Type": "application/octet-stream",
        "Content-Length": str(size),
        "User-Agent": COLLECTOR,
        "Accept": "application/json",
        "X-Requested-With": COLLECTOR,
    }
    try:
        with open(body_path, "rb") as f:
            request = urllib.request.Request(
                url, data=ProgressReader(f, size, report), headers=headers, method="POST"
            )
            with _OPENER.open(request, timeout=timeout) as response:
                status = response.status
                text = response.read(1 << 20)
    except urllib.error.HTTPError as exc:
        status = exc.code
        detail = _detail(exc.read(1 << 16))
        if 300 <= status < 400:
            where = exc.headers.get("Location") if exc.headers else None
            detail = f"the server redirects to {where}; pass that as --server"
        retry_after = _retry_after(exc.headers.get("Retry-After") if exc.headers else None)
        retryable = status >= 500 or status in (408, 429)
        return Attempt(False, retryable, f"HTTP {status}: {detail}", status, None, retry_after)
    except (urllib.error.URLError, http.client.HTTPException, OSError) as exc:
        reason = getattr(exc, "reason", None) or exc
        return Attempt(False, True, f"cannot reach {urllib.parse.urlsplit(url).netloc}: {reason}")
    try:
        parsed = json.loads(text.decode("utf-8", "replace")) if text else {}
    except ValueError:
        parsed = {}
    response_obj = parsed if isinstance(parsed, dict) else {}
    if 200 <= status < 300:
        return Attempt(True, False, f"HTTP {status}", status, response_obj)
    return Attempt(False, status >= 500, f"HTTP {status}: {_detail(text)}", status)


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    """A redirected POST would be replayed as a GET without its body: report it instead."""

    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


_OPENER = urllib.request.build_opener(_NoRedirect)


def _retry_after(value: str | None) -> float | None:
    if not value:
        return None
    try:
        seconds = float(value)
    except ValueError:
        return None
    return seconds if 0 <= seconds <= 120 else None


def backoff_delay(attempt: int, base: float, cap: float = 30.0) -> float:
    """Exponential backoff with jitter: between half and all of base * 2**attempt, capped."""
    full = min(cap, base * (2**attempt))
    return random.uniform(full / 2, full)


def send_entry(spool: Spool, entry: SpoolEntry, settings: UploadSettings, console: Console) -> Attempt:
    """Send one spooled capture, retrying connection errors and 5xx; removed from the spool on success."""
    server = settings.server_override or entry.info.get("server")
    if not server:
        return Attempt(False, False, f"no server for {entry.label}: pass --server")
    if not settings.token:
        return Attempt(False, False, "no upload token: set STALLSCOPE_TOKEN or pass --token-file")
    url = capture_url(str(server), entry.info)
    result = Attempt(False, True, "not tried")
    for attempt in range(settings.retries + 1):
        result = post_once(url, entry.body_path, settings.token, settings.timeout, console, entry.label)
        if result.ok or not result.retryable or attempt == settings.retries:
            break
        delay = (
            result.retry_after
            if result.retry_after is not None
            else backoff_delay(attempt, settings.retry_delay)
        )
        console.info(
            f"upload of {entry.label} failed ({result.message}); "
            f"retry {attempt + 1} of {settings.retries} in {delay:.1f} s"
        )
        time.sleep(delay)
    if result.ok:
        size = fmt_bytes(_size_or_zero(entry.body_path))  # before removal, which deletes the body
        spool.remove(entry)
        capture = result.response or {}
        console.status(
            f"uploaded {entry.label} ({size}): capture {capture.get('id', '?')} {capture.get('status', '')}",
            final=True,
        )
        console.reset_pace()
        return result
    entry.info["attempts"] = int(entry.info.get("attempts", 0)) + settings.retries + 1
    entry.info["last_error"] = result.message
    with contextlib.suppress(OSError):
        spool.update(entry)
    return result


def _size_or_zero(path: str) -> int:
    try:
        return os.path.getsize(path)
    except OSError:
        return 0


def send_all(
    spool: Spool,
    entries: Sequence[SpoolEntry],
    settings: UploadSettings,
    console: Console,
    blocking: bool = True,
) -> tuple[int, int]:
    """Send entries in order; stop early when the server is unreachable. Returns (sent, left)."""
    if not entries:
        return 0, 0
    lock = spool.lock(blocking)
    if lock is None:
        console.warn(f"another stallscope-collect is sending from {spool.path}; leaving it to that one")
        return 0, len(entries)
    sent = 0
    try:
        for entry in entries:
            if not os.path.exists(entry.sidecar_path):
                continue  # sent by someone else meanwhile
            result = send_entry(spool, entry, settings, console)
            if result.ok:
                sent += 1
                continue
            where = settings.server_override or entry.info.get("server")
            console.error(f"{entry.label} was not uploaded to {where}: {result.message}")
            if result.retryable or not settings.token:
                # The server is unreachable or we cannot authenticate: the rest would fail the same way.
                console.info(f"kept in the spool ({spool.path}): `stallscope-collect flush` sends it later")
                return sent, len(entries) - sent
    finally:
        lock.close()
    return sent, len(entries) - sent


def resolve_token(token_file: str | None, console: Console) -> str | None:
    if token_file:
        try:
            st = os.stat(token_file)
            if st.st_mode & 0o077:
                console.warn(f"{token_file} is readable by other users; `chmod 600` it")
            with open(token_file, encoding="utf-8") as f:
                token = f.readline().strip()
        except OSError as exc:
            console.error(f"cannot read the token file: {describe(exc)}")
            return None
        return token or None
    token = os.environ.get("STALLSCOPE_TOKEN", "").strip()
    return token or None


# --------------------------------------------------------------------------------------------
# record


class StopFlag:
    """Set by the first SIGINT/SIGTERM: finish early and keep everything recorded so far."""

    def __init__(self, console: Console) -> None:
        self.event = threading.Event()
        self.console = console
        self._old: dict[int, Any] = {}

    def __enter__(self) -> StopFlag:
        for sig in (signal.SIGINT, signal.SIGTERM):
            self._old[sig] = signal.signal(sig, self._handle)
        return self

    def __exit__(self, *exc: object) -> None:
        for sig, handler in self._old.items():
            signal.signal(sig, handler)

    def _handle(self, signum: int, frame: object) -> None:
        if self.event.is_set():
            raise KeyboardInterrupt
        self.event.set()
        self.console.warn("stopping early: keeping what was recorded so far (again to abort)")


def _dir_bytes(path: str) -> int:
    total = 0
    try:
        for entry in os.scandir(path):
            try:
                if entry.is_file(follow_symlinks=False):
                    total += entry.stat().st_size
            except OSError:
                continue
    except OSError:
        pass
    return total


def _has_children(pid: int) -> bool:
    """Has perf started its `sleep` yet? perf starts it once its events are set up."""
    try:
        return any(
            read_text(f"/proc/{pid}/task/{tid}/children").strip() for tid in os.listdir(f"/proc/{pid}/task")
        )
    except OSError:
        return True  # cannot tell: do not warn


def _signal_group(proc: subprocess.Popen[bytes], sig: int) -> None:
    try:
        os.killpg(proc.pid, sig)
    except OSError:
        with contextlib.suppress(OSError):
            proc.send_signal(sig)


def _scan_perf_log(path: str) -> tuple[list[str], str]:
    """perf's warnings (lost events, truncations) and its closing summary line."""
    try:
        text = read_text(path)
    except OSError:
        return [], ""
    warnings: list[str] = []
    summary = ""
    for line in text.splitlines():
        low = line.lower()
        if "captured and wrote" in low:
            m = re.search(r"\((\d+ samples)\)", line)
            summary = m.group(1) if m else ""
        elif ("lost" in low or "warning" in low or "max size" in low or "error" in low) and len(
            warnings
        ) < 10:
            warnings.append(line.strip())
    return warnings, summary


@dataclass
class Output:
    path: str
    kind: str
    clock: dict[str, Any] | None
    commands: list[list[str]]
    warnings: list[str]


def _target_pids(values: Sequence[str]) -> list[int]:
    pids: list[int] = []
    for value in values:
        for part in value.split(","):
            part = part.strip()
            if not part:
                continue
            if not part.isdigit():
                raise ValueError(f"not a pid: {part!r}")
            pids.append(int(part))
    return sorted(set(pids))


def _output_dir(args: argparse.Namespace, host: str) -> str:
    if args.output:
        return os.path.abspath(os.path.expanduser(str(args.output)))
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    safe_host = re.sub(r"[^\w.-]", "_", host)
    return os.path.join(data_home(), "captures", f"{stamp}-{safe_host}")


def cmd_record(args: argparse.Namespace, console: Console) -> int:
    host = args.host or socket.gethostname()
    try:
        pids = _target_pids(args.pid or [])
    except ValueError as exc:
        console.error(str(exc))
        return EXIT_USAGE
    if bool(pids) == bool(args.all):
        console.error("pick a target: --pid PID (one or more) or --all")
        return EXIT_USAGE
    for pid in pids:
        if not os.path.isdir(f"/proc/{pid}"):
            console.error(f"there is no process with pid {pid}")
            return EXIT_USAGE
    if args.duration <= 0 or args.duration > args.max_duration:
        console.error(
            f"--duration must be between 0 and --max-duration ({fmt_seconds(args.max_duration)} s); "
            "raise --max-duration for longer records"
        )
        return EXIT_USAGE
    if args.cpu_hz > MAX_CPU_HZ and not args.allow_high_frequency:
        console.error(
            f"--cpu-hz {args.cpu_hz} is above {MAX_CPU_HZ} Hz, which costs the traced process noticeably "
            "more; add --allow-high-frequency if that is intended"
        )
        return EXIT_USAGE
    if args.sample_hz <= 0 or args.sample_hz > 100:
        console.error("--sample-hz must be between 0 and 100")
        return EXIT_USAGE
    if args.server and args.incident is None:
        console.error("--server needs --incident ID")
        return EXIT_USAGE
    if args.proc_stacks and not 0 < args.stacks_hz <= MAX_STACKS_HZ:
        console.error(f"--stacks-hz must be above 0 and at most {MAX_STACKS_HZ:g}")
        return EXIT_USAGE
    if args.proc_stacks:
        unreadable = stacks_unreadable()
        if unreadable is not None:
            console.error(unreadable)
            return EXIT_ERROR

    explicit = [m for m in PERF_MODES if getattr(args, m)]
    modes: list[str] = [] if args.no_perf else (explicit or list(DEFAULT_PERF_MODES))
    plan_warnings: list[str] = []
    perf: Perf | None = None
    if modes:
        perf, why = find_perf()
        if perf is None:
            if explicit:
                console.error(why)
                return EXIT_ERROR
            plan_warnings.append(why + "; recording the /proc sampler and the snapshot only")
            modes = []
    paranoid = read_paranoid()
    privileged = perf_privileged()
    refused, perm_warnings = permission_problems(modes, args.all, paranoid, privileged)
    plan_warnings += perm_warnings
    if refused:
        for message in refused.values():
            if explicit:
                console.error(message)
            else:
                plan_warnings.append(message + "; skipping it")
        if explicit:
            return EXIT_ERROR
        modes = [m for m in modes if m not in refused]

    outdir = _output_dir(args, host)
    if os.path.isdir(outdir) and os.path.exists(os.path.join(outdir, "commands.txt")):
        console.error(f"{outdir} already holds a capture; pick a new --output directory")
        return EXIT_USAGE

    rates = measure_rates(pids)
    if "offcpu" in modes:
        cost = rates.ctx_per_s * OFFCPU_EVENTS_PER_SWITCH * OFFCPU_EVENT_COST_S
        if cost > OFFCPU_DEFAULT_BUDGET:
            who = "the host" if args.all else "the target"
            message = (
                f"{who} switches context {rates.ctx_per_s:,.0f} times a second; off-CPU tracing records "
                f"every switch with its stack, roughly {100 * cost:.0f}% of a CPU at this rate"
            )
            if "offcpu" in explicit:
                console.warn(message + "; recording it as asked")
            else:
                console.warn(message + ": leaving it out (ask for it with --offcpu)")
                modes.remove("offcpu")

    # Disk budget: estimate from the current rates, refuse rather than fill the disk.
    estimate = estimate_bytes(
        modes,
        rates,
        args.duration,
        args.cpu_hz,
        args.sample_hz,
        args.all,
        not args.no_proc,
        args.stacks_hz if args.proc_stacks else 0.0,
    )
    need = sum(estimate.values())
    spool = Spool(args.spool or default_spool())
    if args.server:
        need += need // 4  # compressed copies in the spool
    check_dir = existing_parent(outdir)
    free = free_bytes(check_dir)
    if free - need < args.min_free:
        detail = ", ".join(f"{k} ~{fmt_bytes(v)}" for k, v in estimate.items())
        console.error(
            f"not enough free disk for this record in {check_dir}: it may need ~{fmt_bytes(need)} "
            f"({detail or 'nothing'} at the current rates) and {fmt_bytes(args.min_free)} must stay free, "
            f"but only {fmt_bytes(free)} is free. Use --output on a larger disk, a shorter --duration, "
            "fewer modes, or a lower --min-free."
        )
        return EXIT_ERROR
    per_job_cap = max(16 << 20, (free - args.min_free) // (5 * max(1, len(modes))))

    plan = Plan([], [], {}, [])
    if perf is not None and modes:
        workdir = tempfile.mkdtemp(prefix="stallscope-probe-")
        try:
            prober = PerfProber(perf, workdir)
            opts = RecordOptions(
                outdir, pids, args.all, args.duration, modes, args.cpu_hz, args.syscalls or [], per_job_cap
            )
            opts.system_wide_ok = privileged or (paranoid is not None and paranoid <= 0)
            plan = plan_perf_jobs(perf, prober, opts, bool(explicit))
        finally:
            shutil.rmtree(workdir, ignore_errors=True)
        if explicit and plan.skipped:
            for message in plan.warnings:
                console.error(message)
            return EXIT_ERROR
        for mode, reason in plan.skipped.items():
            plan_warnings.append(f"{mode}: {reason}; skipping it")
    for warning in plan_warnings + plan.warnings:
        console.warn(warning)

    if args.dry_run:
        for job in plan.jobs:
            for cmd in job.commands:
                print(shlex.join(cmd))
        if args.metrics_cmd:
            print(shlex.join(["sh", "-c", args.metrics_cmd]))
        return EXIT_OK
    os.makedirs(outdir, exist_ok=True)
    return _run_record(args, console, host, pids, outdir, perf, plan, spool)


def _run_record(
    args: argparse.Namespace,
    console: Console,
    host: str,
    pids: list[int],
    outdir: str,
    perf: Perf | None,
    plan: Plan,
    spool: Spool,
) -> int:
    outputs: list[Output] = []
    warnings: list[str] = []
    anchors = [clock_anchor()]
    started_wall = time.time()
    parts = [j.kind for j in plan.jobs] + ([] if args.no_proc else ["proc"])
    parts += ["proc-stacks"] if args.proc_stacks else []
    parts += ([] if args.no_snapshot else ["snapshot"]) + (["app-metrics"] if args.metrics_cmd else [])
    console.info(f"recording {', '.join(parts)} for {fmt_seconds(args.duration)} s into {outdir}")
    sampler = None
    dumper = None
    metrics = None
    with StopFlag(console) as stop:
        for job in plan.jobs:
            job.log_path = os.path.join(outdir, job.kind + ".record.log")
            with open(job.log_path, "wb") as log:
                # A process group of its own, so a Ctrl-C on the terminal reaches only the collector,
                # which stops perf cleanly. Not a session of its own: with sched_autogroup each
                # session is a scheduling group, and perf then starved for tens of seconds while
                # moving itself onto a CPU saturated by the target.
                job.proc = subprocess.Popen(
                    job.record_cmd, stdin=subprocess.DEVNULL, stdout=log, stderr=log, preexec_fn=os.setpgrp
                )
        if not args.no_proc:
            sampler = ProcSampler(os.path.join(outdir, "proc.jsonl"), host, pids, args.sample_hz)
            sampler.start()
        if args.proc_stacks:
            dumper = StackDumper(os.path.join(outdir, "proc-stacks.txt"), pids, args.stacks_hz)
            dumper.start()
        if args.metrics_cmd:
            metrics = MetricsRunner(
                os.path.join(outdir, "app-metrics.jsonl"), host, pids, args.metrics_cmd, args.metrics_interval
            )
            metrics.start()
        snapshot_error = None
        if not args.no_snapshot:
            try:
                snapshot = take_snapshot(host, pids, perf.path if perf else None)
                write_json(os.path.join(outdir, "snapshot.json"), snapshot)
            except Exception as exc:  # the snapshot is best-effort as a whole, too
                snapshot_error = describe(exc)
        aborted = _wait_for_record(args, console, plan.jobs, outdir, stop)
        if sampler is not None:
            sampler.stop()
        if dumper is not None:
            dumper.stop()
        if metrics is not None:
            metrics.stop()
        anchors.append(clock_anchor())
        if aborted:
            return EXIT_ERROR
        perf_clock = "monotonic" if all(j.perf_clock == "monotonic" for j in plan.jobs) else "default"
        write_json(os.path.join(outdir, "clock.json"), {"perf_clock": perf_clock, "anchors": anchors})
        for job in plan.jobs:
            _convert(job, console, outdir, args.min_free)
    if snapshot_error:
        warnings.append("snapshot failed: " + snapshot_error)

    for job in plan.jobs:
        record_warnings, summary = _scan_perf_log(job.log_path)
        job.warnings += record_warnings
        if job.returncode not in (0, None) and not os.path.exists(job.text_path):
            warnings.append(
                f"{job.kind}: perf exited with {job.returncode}: {_tail(read_text(job.log_path))}"
            )
            continue
        if not os.path.exists(job.text_path) or os.path.getsize(job.text_path) == 0:
            warnings.append(f"{job.kind}: nothing was recorded ({summary or 'no events'})")
            continue
        clock = {"perf_clock": job.perf_clock, "anchors": anchors}
        outputs.append(Output(job.text_path, job.kind, clock, job.commands, job.warnings + job.notes))
        console.info(
            f"{job.kind:<8} {os.path.basename(job.text_path)} ({fmt_bytes(os.path.getsize(job.text_path))})"
            + (": " + summary if summary else "")
        )
    if sampler is not None:
        if sampler.error:
            warnings.append("the /proc sampler stopped: " + sampler.error)
        outputs.append(Output(sampler.path, "proc", None, [], []))
        console.info(
            f"proc     proc.jsonl ({fmt_bytes(os.path.getsize(sampler.path))}, {sampler.ticks} ticks)"
        )
    if dumper is not None:
        if dumper.error:
            warnings.append("the stack dumper stopped: " + dumper.error)
        if dumper.dumps == 0:
            why = "no thread of the targets could be read" if pids else "no thread was in state D"
            warnings.append(f"proc-stacks: nothing was recorded ({why})")
        else:
            outputs.append(Output(dumper.path, "proc-stacks", None, [], []))
            console.info(
                f"stacks   proc-stacks.txt ({fmt_bytes(os.path.getsize(dumper.path))}, "
                f"{dumper.dumps} dumps in {dumper.ticks} ticks)"
            )
    if metrics is not None:
        for problem in metrics.problems:
            warnings.append("--metrics-cmd: " + problem)
        outputs.append(
            Output(metrics.path, "app-metrics", None, [["sh", "-c", metrics.command]], metrics.problems)
        )
        console.info(f"metrics  app-metrics.jsonl ({metrics.records} records from {metrics.runs} runs)")
    snapshot_path = os.path.join(outdir, "snapshot.json")
    if os.path.exists(snapshot_path):
        outputs.append(Output(snapshot_path, "snapshot", None, [], []))

    _write_commands(outdir, plan, args, started_wall)
    for warning in [w for job in plan.jobs for w in job.warnings] + warnings:
        console.warn(warning)
    if not args.server:
        console.info("done; upload later with:")
        program = os.path.basename(sys.argv[0]) or "stallscope-collect"
        clock_file = shlex.quote(os.path.join(outdir, "clock.json"))
        for out in outputs:
            clock_flag = f" --clock {clock_file}" if out.clock else ""
            console.info(
                f"  {program} upload {shlex.quote(out.path)} --server URL --incident ID --kind {out.kind} "
                f"--host {shlex.quote(host)}{clock_flag}"
            )
        return EXIT_OK
    return _upload_outputs(args, console, host, pids, outdir, outputs, spool, perf)


def _wait_for_record(
    args: argparse.Namespace, console: Console, jobs: list[PerfJob], outdir: str, stop: StopFlag
) -> bool:
    """Wait out the duration (perf stops itself); True when the user aborted."""
    started = time.monotonic()
    deadline = started + args.duration
    grace = deadline + 60.0
    signalled_at: float | None = None
    checked_start = False
    try:
        while True:
            now = time.monotonic()
            running = [j for j in jobs if j.proc is not None and j.proc.poll() is None]
            if not running and (jobs or now >= deadline or stop.event.is_set()):
                break
            if not checked_start and now - started > 10:
                checked_start = True
                for job in running:
                    assert job.proc is not None
                    if not _has_children(job.proc.pid):
                        console.warn(
                            f"{job.kind}: perf has not started recording after 10 s (a saturated CPU?); "
                            "it records the full duration once it does"
                        )
            low_disk = False
            with contextlib.suppress(OSError):
                low_disk = free_bytes(outdir) < args.min_free // 2
            if low_disk and not stop.event.is_set():
                console.warn(f"free disk below {fmt_bytes(args.min_free // 2)}: stopping early")
                stop.event.set()
            if (stop.event.is_set() or now > grace) and signalled_at is None:
                signalled_at = now
                for job in running:
                    assert job.proc is not None
                    _signal_group(job.proc, signal.SIGINT)
            elif signalled_at is not None and now - signalled_at > 20:
                for job in running:
                    assert job.proc is not None
                    _signal_group(job.proc, signal.SIGKILL if now - signalled_at > 40 else signal.SIGTERM)
            elapsed = min(now - started, args.duration)
            console.status(
                f"recording: {elapsed:.0f} s of {fmt_seconds(args.duration)} s, "
                f"{max(0.0, deadline - now):.0f} s left, {fmt_bytes(_dir_bytes(outdir))} written"
            )
            time.sleep(0.25)
    except KeyboardInterrupt:
        for job in jobs:
            if job.proc is not None and job.proc.poll() is None:
                _signal_group(job.proc, signal.SIGTERM)
        console.error(f"aborted; partial files are in {outdir}")
        return True
    for job in jobs:
        if job.proc is not None:
            job.returncode = job.proc.wait()
    console.status(f"recorded {fmt_bytes(_dir_bytes(outdir))} in {outdir}", final=True)
    return False


def _convert(job: PerfJob, console: Console, outdir: str, min_free: int) -> None:
    """perf script (or perf trace -i) the recording to text, watching the disk while it writes."""
    if job.convert_cmd is None or job.data_path is None or not os.path.exists(job.data_path):
        return
    log_path = os.path.join(outdir, job.kind + ".convert.log")
    # perf script writes to stdout; perf trace -i writes its own -o file.
    out_path = job.text_path if "-o" not in job.convert_cmd else os.devnull
    with open(log_path, "wb") as log, open(out_path, "wb") as out:
        proc = subprocess.Popen(job.convert_cmd, stdin=subprocess.DEVNULL, stdout=out, stderr=log)
        name = os.path.basename(job.data_path)
        console.reset_pace()
        console.status(f"converting {name} to text")
        try:
            while proc.poll() is None:
                time.sleep(0.25)
                console.status(f"converting {name} to text: {fmt_bytes(_size_or_zero(job.text_path))}")
                try:
                    disk_low = free_bytes(outdir) < min_free // 2
                except OSError:
                    disk_low = False
                if disk_low:
                    proc.terminate()
                    proc.wait()
                    job.warnings.append("text conversion cut short: the disk is nearly full")
        except KeyboardInterrupt:
            proc.terminate()
            proc.wait()
            job.warnings.append("text conversion interrupted; the text file is incomplete")
            return
    warnings, _ = _scan_perf_log(log_path)
    job.warnings += warnings


def _write_commands(outdir: str, plan: Plan, args: argparse.Namespace, started: float) -> None:
    lines = [
        f"# {COLLECTOR}, record started {time.strftime('%Y-%m-%d %H:%M:%S', time.gmtime(started))} UTC",
        "# collector: " + shlex.join([os.path.basename(sys.argv[0]), *sys.argv[1:]]),
    ]
    if plan.probe_cmds:
        lines.append("# probes (what this kernel and perf accept)")
        lines += [shlex.join(cmd) for cmd in plan.probe_cmds]
    for job in plan.jobs:
        notes = f" ({'; '.join(job.notes)})" if job.notes else ""
        lines.append(f"# {job.kind}{notes}")
        lines += [shlex.join(cmd) for cmd in job.commands]
    if args.metrics_cmd:
        lines.append(f"# app-metrics, every {fmt_seconds(args.metrics_interval)} s")
        lines.append(shlex.join(["sh", "-c", args.metrics_cmd]))
    atomic_write(os.path.join(outdir, "commands.txt"), ("\n".join(lines) + "\n").encode())


def _meta(
    kind: str, commands: list[list[str]], pids: Sequence[int], perf: Perf | None, warnings: Sequence[str]
) -> dict[str, Any]:
    meta: dict[str, Any] = {
        "collector": COLLECTOR,
        # Exactly as run, but secrets masked (a --metrics-cmd may carry a password or a header);
        # commands.txt on the host keeps them unmasked.
        "commands": [redact_value(shlex.join(c)) for c in commands],
        "kind": kind,
        "target_pids": list(pids),
    }
    if perf is not None and commands:
        meta["perf_version"] = perf.version
    if warnings:
        meta["warnings"] = list(warnings)[:10]
    return meta


def _upload_outputs(
    args: argparse.Namespace,
    console: Console,
    host: str,
    pids: list[int],
    outdir: str,
    outputs: list[Output],
    spool: Spool,
    perf: Perf | None,
) -> int:
    if not outputs:
        console.warn("nothing to upload")
        return EXIT_ERROR
    stamp = os.path.basename(outdir.rstrip("/"))
    older = spool.entries()
    fresh: list[SpoolEntry] = []
    for out in outputs:
        name = os.path.basename(out.path)
        info = {
            "server": args.server,
            "incident": args.incident,
            "filename": f"{stamp}-{name}.gz" if not name.endswith(".gz") else f"{stamp}-{name}",
            "host": host,
            "kind": out.kind,
            "clock": out.clock,
            "meta": _meta(out.kind, out.commands, pids, perf, out.warnings),
        }
        try:
            fresh.append(spool.add(out.path, info, console))
        except OSError as exc:
            console.error(f"could not spool {name}: {describe(exc)} (the file stays in {outdir})")
    settings = _upload_settings(args, console)
    _sent, left = send_all(spool, fresh, settings, console)
    if left == 0 and older:
        console.info(f"sending {len(older)} capture(s) left in the spool by earlier runs")
        _, left = send_all(spool, older, settings, console)
    remaining = len(spool.entries())
    if remaining:
        console.warn(
            f"{remaining} capture(s) wait in {spool.path}; "
            "run `stallscope-collect flush` when the server is back"
        )
        return EXIT_PENDING
    console.info("all captures uploaded")
    return EXIT_OK


def _upload_settings(args: argparse.Namespace, console: Console) -> UploadSettings:
    return UploadSettings(
        token=resolve_token(args.token_file, console),
        retries=args.retries,
        retry_delay=args.retry_delay,
        timeout=args.timeout,
        server_override=getattr(args, "flush_server", None),
    )


# --------------------------------------------------------------------------------------------
# upload and flush


def cmd_upload(args: argparse.Namespace, console: Console) -> int:
    host = args.host or socket.gethostname()
    clock = None
    if args.clock:
        try:
            clock = json.loads(read_text(args.clock))
        except (OSError, ValueError) as exc:
            console.error(f"cannot read the clock file: {describe(exc)}")
            return EXIT_USAGE
    for path in args.files:
        if not os.path.isfile(path):
            console.error(f"not a file: {path}")
            return EXIT_USAGE
    spool = Spool(args.spool or default_spool())
    entries = []
    for path in args.files:
        name = os.path.basename(path)
        info = {
            "server": args.server,
            "incident": args.incident,
            "filename": name if name.endswith(".gz") else name + ".gz",
            "host": host,
            "kind": args.kind,
            "clock": clock,
            "meta": _meta(args.kind, [], [], None, []),
        }
        entries.append(spool.add(path, info, console))
    _, left = send_all(spool, entries, _upload_settings(args, console), console)
    if left:
        return EXIT_PENDING
    return EXIT_OK


def cmd_flush(args: argparse.Namespace, console: Console) -> int:
    spool = Spool(args.spool or default_spool())
    spool.clean()
    entries = spool.entries()
    if not entries:
        console.info(f"the spool is empty ({spool.path})")
        return EXIT_OK
    console.info(f"sending {len(entries)} spooled capture(s) from {spool.path}")
    args.flush_server = args.server
    sent, _ = send_all(spool, entries, _upload_settings(args, console), console, blocking=False)
    left = len(spool.entries())
    console.info(f"{sent} sent, {left} left in the spool")
    return EXIT_PENDING if left else EXIT_OK


# --------------------------------------------------------------------------------------------
# Command line

RECORD_EPILOG = """\
examples:
  # 30 s of CPU and off-CPU stacks, /proc samples and a snapshot of process 4242, uploaded:
  STALLSCOPE_TOKEN=... stallscope-collect record --server https://stallscope.example --incident 12 --pid 4242

  # everything on the host, with page faults and slow syscalls, kept locally:
  stallscope-collect record --all --cpu --offcpu --faults --syscalls futex,fsync,mmap --output /var/tmp/inc12

  # only /proc and the snapshot (no perf), plus the application's own metrics every 2 s:
  stallscope-collect record --pid 4242 --no-perf --metrics-cmd 'curl -s localhost:9100/metrics' \\
      --metrics-interval 2 --output /var/tmp/inc12-app

  # where perf cannot trace the scheduler: each thread's kernel stack from /proc, 10 times a second
  sudo stallscope-collect record --pid 4242 --no-perf --proc-stacks --stacks-hz 10 \\
      --output /var/tmp/inc12-stacks

Exit status: 0 done, 1 error, 2 usage, 3 recorded but some uploads wait in the spool.
"""

UPLOAD_EPILOG = """\
examples:
  stallscope-collect upload cpu.perf.txt --kind cpu --clock clock.json --server URL --incident 12
  stallscope-collect upload mpstat.txt iostat.txt --kind metrics --server URL --incident 12 --host db-7
"""

FLUSH_EPILOG = """\
examples:
  stallscope-collect flush                         # each capture goes where it was meant to go
  stallscope-collect flush --server https://other  # send them all to another console
"""


def _add_upload_flags(p: argparse.ArgumentParser, with_server: bool = True) -> None:
    if with_server:
        p.add_argument(
            "--server",
            default=os.environ.get("STALLSCOPE_SERVER"),
            metavar="URL",
            help="the Stallscope console, e.g. https://stallscope.example (default: $STALLSCOPE_SERVER)",
        )
    p.add_argument(
        "--token-file",
        metavar="FILE",
        help="read the upload token from FILE's first line (default: $STALLSCOPE_TOKEN)",
    )
    p.add_argument("--spool", metavar="DIR", help=f"where unsent captures wait (default: {default_spool()})")
    p.add_argument("--retries", type=int, default=5, help="retries on connection errors and 5xx (default: 5)")
    p.add_argument(
        "--retry-delay",
        type=float,
        default=1.0,
        metavar="SECONDS",
        help="first backoff delay; doubles each retry, with jitter, capped at 30 s (default: 1)",
    )
    p.add_argument(
        "--timeout", type=float, default=120.0, metavar="SECONDS", help="socket timeout (default: 120)"
    )
    p.add_argument("--quiet", "-q", action="store_true", help="only warnings and errors")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="stallscope-collect",
        description="Record what a Linux server does during a latency incident and upload it to Stallscope.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="Run `stallscope-collect COMMAND --help` for each command's flags and examples.",
    )
    parser.add_argument("--version", action="version", version=COLLECTOR)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    rec = sub.add_parser(
        "record",
        help="record perf, /proc samples and a snapshot, then upload",
        description=(
            "Record for --duration seconds: perf (CPU stacks at 49 Hz and off-CPU scheduler events "
            "by default), /proc samples at 20 Hz, a system snapshot and clock anchors; turn perf's "
            "data into text; upload everything when --server is given (keeping it in the spool until "
            "the server has it)."
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=RECORD_EPILOG,
    )
    rec.add_argument(
        "--server",
        default=os.environ.get("STALLSCOPE_SERVER"),
        metavar="URL",
        help="upload to this console when done (default: $STALLSCOPE_SERVER; none: keep locally)",
    )
    rec.add_argument("--incident", type=int, metavar="ID", help="the incident the captures belong to")
    target = rec.add_argument_group("target (one of)")
    target.add_argument(
        "--pid",
        action="append",
        metavar="PID",
        help="process to record; repeat or comma-separate for several",
    )
    target.add_argument("--all", action="store_true", help="the whole host")
    rec.add_argument("--duration", type=float, default=30.0, metavar="SECONDS", help="default: 30")
    rec.add_argument(
        "--max-duration",
        type=float,
        default=600.0,
        metavar="SECONDS",
        help="refuse longer --duration (default: 600)",
    )
    modes = rec.add_argument_group("perf modes (default: --cpu --offcpu)")
    modes.add_argument("--cpu", action="store_true", help="on-CPU stacks: perf record -F HZ -g")
    modes.add_argument(
        "--offcpu",
        action="store_true",
        help="off-CPU stacks: sched:sched_switch, sched:sched_wakeup, sched:sched_waking with -g",
    )
    modes.add_argument("--faults", action="store_true", help="a stack per page fault: -e page-faults -c 1 -g")
    modes.add_argument(
        "--syscalls",
        type=parse_syscall_list,
        metavar="LIST",
        help="durations of these syscalls, e.g. futex,fsync,mmap (perf trace)",
    )
    modes.add_argument(
        "--no-perf", action="store_true", help="no perf at all: /proc sampler and snapshot only"
    )
    modes.add_argument(
        "--cpu-hz", type=int, default=49, metavar="HZ", help="CPU sampling rate (default: 49, max 99)"
    )
    modes.add_argument("--allow-high-frequency", action="store_true", help="allow --cpu-hz above 99")
    other = rec.add_argument_group("sampler, snapshot, metrics")
    other.add_argument(
        "--sample-hz", type=float, default=20.0, metavar="HZ", help="/proc sampler rate (default: 20)"
    )
    other.add_argument("--no-proc", action="store_true", help="no /proc sampler")
    other.add_argument(
        "--proc-stacks",
        action="store_true",
        help="kernel stacks of the targets' threads from /proc/PID/task/TID/stack (with --all: of "
        "threads in state D); needs root",
    )
    other.add_argument(
        "--stacks-hz", type=float, default=5.0, metavar="HZ", help="--proc-stacks rate (default: 5)"
    )
    other.add_argument("--no-snapshot", action="store_true", help="no system snapshot")
    other.add_argument(
        "--metrics-cmd",
        metavar="CMD",
        help="shell command printing JSON lines or `name value` lines, run every interval",
    )
    other.add_argument("--metrics-interval", type=float, default=1.0, metavar="SECONDS", help="default: 1")
    where = rec.add_argument_group("where")
    where.add_argument("--host", metavar="NAME", help="host name to report (default: this host's name)")
    where.add_argument(
        "--output",
        metavar="DIR",
        help=f"directory for the files (default: {data_home()}/captures/<time>-<host>)",
    )
    where.add_argument(
        "--min-free",
        type=parse_size,
        default=parse_size("256M"),
        metavar="SIZE",
        help="refuse to start, or stop early, to keep this much disk free (default: 256M)",
    )
    where.add_argument("--dry-run", action="store_true", help="print the commands that would run, then exit")
    _add_upload_flags(rec, with_server=False)

    up = sub.add_parser(
        "upload",
        help="upload captures taken by hand",
        description="Compress and upload files (perf script text, perf trace text, metrics…) to an incident.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=UPLOAD_EPILOG,
    )
    up.add_argument("files", nargs="+", metavar="FILE")
    up.add_argument("--incident", type=int, required=True, metavar="ID")
    up.add_argument("--kind", required=True, choices=KINDS)
    up.add_argument("--host", metavar="NAME", help="host the files come from (default: this host's name)")
    up.add_argument("--clock", metavar="FILE", help="clock.json written by `record`, to align perf times")
    _add_upload_flags(up)

    fl = sub.add_parser(
        "flush",
        help="send everything waiting in the spool",
        description="Send every spooled capture to the server it was meant for (or to --server).",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=FLUSH_EPILOG,
    )
    fl.add_argument(
        "--server", metavar="URL", help="send every capture here instead (default: each one's own)"
    )
    _add_upload_flags(fl, with_server=False)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return EXIT_USAGE
    console = Console(quiet=args.quiet)
    if args.command in ("upload",) and not args.server:
        console.error("--server is required (or set STALLSCOPE_SERVER)")
        return EXIT_USAGE
    try:
        if args.command == "record":
            return cmd_record(args, console)
        if args.command == "upload":
            return cmd_upload(args, console)
        return cmd_flush(args, console)
    except KeyboardInterrupt:
        console.error("interrupted")
        return 130


if __name__ == "__main__":
    sys.exit(main())
