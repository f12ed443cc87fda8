"""Hand-written `perf script` captures with known diffs, shared by the API and CLI tests."""

from __future__ import annotations

MS = 1_000_000
"""cpu-clock periods are nanoseconds: one sample below is 1 ms."""


def sample(comm: str, pid: int, tid: int, t: float, event: str, period: int, *frames: str) -> str:
    """One perf script CPU sample; `frames` are leaf first, as perf prints them."""
    lines = [f"{comm} {pid}/{tid} [000] {t:.6f}: {period} {event}:"]
    lines += [f"\t    {0x1000 + i:x} {f} (/usr/bin/{comm})" for i, f in enumerate(frames)]
    return "\n".join(lines) + "\n\n"


def cpu_capture(scan: int, sort: int, serve: int, start: float = 100.0) -> str:
    """db spends `scan` and `sort` ms under query in the first second, web `serve` ms in the next."""
    out = [
        sample("db", 10, 11, start + i * 0.01, "cpu-clock", MS, "scan", "query", "main") for i in range(scan)
    ]
    out += [
        sample("db", 10, 12, start + 0.5 + i * 0.01, "cpu-clock", MS, "sort", "query", "main")
        for i in range(sort)
    ]
    out += [
        sample("web", 20, 20, start + 1 + i * 0.01, "cpu-clock", MS, "serve", "main") for i in range(serve)
    ]
    return "".join(out)


BEFORE = cpu_capture(scan=2, sort=4, serve=2)
AFTER = cpu_capture(scan=4, sort=2, serve=2) + sample("db", 10, 11, 100.9, "page-faults", 1, "memcpy", "main")
"""scan doubles and sort halves (2:1 both ways); totals stay 8 ms; a stray page fault must not count."""

D_STACK = ("__schedule", "schedule", "io_schedule", "filemap_fdatawait", "__x64_sys_fsync")
S_STACK = ("__schedule", "schedule", "futex_wait_queue", "do_futex", "__x64_sys_futex")


def _switch(
    comm: str, tid: int, time: str, state: str, next_comm: str, next_tid: int, stack: tuple[str, ...]
) -> str:
    args = (
        f"prev_comm={comm} prev_pid={tid} prev_prio=120 prev_state={state} "
        f"==> next_comm={next_comm} next_pid={next_tid} next_prio=120"
    )
    lines = [f"{comm} {tid} [000] {time}: sched:sched_switch: {args}"]
    lines += [f"\tffffffff81{i:06x} {name}+0x1 ([kernel.kallsyms])" for i, name in enumerate(stack)]
    return "\n".join(lines) + "\n\n"


def sched_capture(d_ms: int, s_ms: int) -> str:
    """worker blocks in D (fsync) for `d_ms` at 0 µs into second 1, then in S (futex) for `s_ms` at
    500000 µs; main is off-CPU in S in between (and left runnable, unclosed, at the end)."""
    d_end = f"{1 + d_ms / 1000:.6f}"
    s_end = f"{1.5 + s_ms / 1000:.6f}"
    return "".join(
        [
            _switch("worker", 100, "1.000000", "D", "main", 200, D_STACK),
            _switch("main", 200, d_end, "S", "worker", 100, S_STACK),
            _switch("worker", 100, "1.500000", "S", "main", 200, S_STACK),
            _switch("main", 200, s_end, "R", "worker", 100, S_STACK),
        ]
    )


SCHED = sched_capture(d_ms=10, s_ms=100)
"""Off-CPU: worker 10 ms in D then 100 ms in S; main 490 ms in S."""
