"""Instrumentation overhead: kprobes, uprobes and BPF programs on hot paths.

A kretprobe on a syscall path traps on every call and return (`kretprobe_trampoline`,
`kprobe_int3_handler`), a uprobe takes an int3 and a single step into the kernel per hit
(`uprobe_notify_resume`, `handle_swbp`), and every attached BPF program (`bpf_prog_<tag>_<name>`)
runs inline. A monitoring agent's probes on a proxy's send/recv path can cost more than the work
itself, and the kretprobe instance pool takes a spin lock per call.
"""

from __future__ import annotations

from stallscope.analysis.findings.detector import Links
from stallscope.analysis.findings.finding import Evidence
from stallscope.analysis.findings.on_cpu import OnCpuDetector, cpu_thresholds
from stallscope.analysis.findings.profile import Match, Profile, Terms

PROBE_FRAMES = Terms(
    "kretprobe_trampoline",
    "kprobe_ftrace_handler",
    "kprobe_int3_handler",
    "pre_handler_kretprobe",
    "kprobe_perf_func",
    "kretprobe_perf_func",
    "trampoline_handler",
    "opt_pre_handler",
    "optimized_callback",
    "uprobe_notify_resume",
    "handle_swbp",
    "uprobe_dispatcher",
    "uretprobe_dispatcher",
    "handle_trampoline",
    "bpf_prog_",
    "bpf_trace_run",
    "__bpf_prog_run",
    "trace_call_bpf",
    "bpf_dispatcher",
)
PROBE_SETTINGS = ("kprobe_events", "uprobe_events", "kprobes_list")


class InstrumentationOverhead(OnCpuDetector):
    id = "instrumentation-overhead"
    title = "Probe and BPF overhead"
    terms = PROBE_FRAMES
    skip = Terms(
        "probe", "bpf", "trampoline", "handler", "uprobe", "swbp", "int3", "exc_", "asm_exc", "ftrace"
    )
    what = "in kprobes, uprobes and BPF programs"
    thresholds = cpu_thresholds(warning=0.03, critical=0.10, info=0.01)
    needs = ("cpu", "snapshot")
    next_checks = (
        "Which agent loaded them: bpftool prog show (pids), /sys/kernel/tracing/kprobe_events, "
        "/sys/kernel/debug/kprobes/list.",
        "The probed functions' call rate (the callers below the probe frames).",
        "Whether the overhead appeared with an agent's rollout (compare a host without it).",
    )
    remediation = (
        "Detach the probes from hot paths or sample instead of tracing every call; prefer fentry/fexit "
        "BPF (no trap) to kprobes/kretprobes, tracepoints to kprobes, and USDT with semaphores to "
        "uprobes; upgrade kernels where the kretprobe pool lock is a spin lock (rethook since 5.19)."
    )
    references = (
        "https://docs.kernel.org/trace/kprobes.html",
        "https://docs.kernel.org/trace/uprobetracer.html",
        "https://www.brendangregg.com/blog/2015-06-28/linux-ftrace-uprobe.html",
    )

    def corroborate(self, p: Profile, match: Match, links: Links) -> list[Evidence]:
        out = []
        probes = {
            k: v
            for section in ("tracing",)
            for k, v in p.settings.items()
            if k[0] == section and k[1].split(" · ")[0] in PROBE_SETTINGS
        }
        if probes:
            names = sorted({k[1] for k in probes})
            out.append(
                Evidence(
                    "Probes in the snapshot",
                    f"{len(names)} kprobe/uprobe entries, e.g. {names[0]}",
                    len(names),
                    "count",
                    view=links.snapshot(),
                )
            )
        programs = [k for k in p.settings if k[0] == "bpf"]
        if programs:
            out.append(
                Evidence(
                    "BPF programs loaded",
                    f"{len(programs)} BPF program entries in the snapshot",
                    len(programs),
                    "count",
                    view=links.snapshot(),
                )
            )
        return out
