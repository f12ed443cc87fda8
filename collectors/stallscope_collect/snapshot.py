"""The system snapshot (`snapshot.json`): kernel, CPUs, THP, tracing, BPF, sysctls and the targets."""

from __future__ import annotations

import glob
import json
import os
import shutil
import time
from typing import Any, Callable, Sequence

from stallscope_collect.files import read_proc, read_text, run_text
from stallscope_collect.formatting import describe
from stallscope_collect.redaction import environment_of_interest, redact_argv


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
