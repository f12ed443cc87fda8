"""Scheduler intervals from hand-written `perf script` snippets, one rule per test."""

from __future__ import annotations

import io

import pytest

from stallscope.ingest.model import EventKind, ParseReport, Record, Sample, TimedEvent
from stallscope.ingest.sched import IMPORTER, detect, parse_sched
from stallscope.ingest.sched.args import read_switch, read_wakeup

SCHEDULE = ("__schedule", "schedule", "futex_wait_queue", "do_futex", "__x64_sys_futex")
TIMER_IRQ = ("try_to_wake_up", "hrtimer_wakeup", "__hrtimer_run_queues", "asm_sysvec_apic_timer_interrupt")


def sample(
    comm: str, tid: int, cpu: int, time: str, event: str, args: str = "", frames: tuple[str, ...] = ()
) -> str:
    """One perf script sample: header, frames leaf first, blank line."""
    lines = [f"{comm} {tid} [{cpu:03d}] {time}: {event}: {args}".rstrip()]
    lines += [f"\tffffffff81{i:06x} {name}+0x1 ([kernel.kallsyms])" for i, name in enumerate(frames)]
    return "\n".join(lines) + "\n\n"


def switch(comm: str, tid: int, cpu: int, time: str, state: str, next_comm: str, next_tid: int) -> str:
    args = (
        f"prev_comm={comm} prev_pid={tid} prev_prio=120 prev_state={state} "
        f"==> next_comm={next_comm} next_pid={next_tid} next_prio=120"
    )
    return sample(comm, tid, cpu, time, "sched:sched_switch", args, SCHEDULE)


def wake(
    event: str,
    waker: str,
    waker_tid: int,
    cpu: int,
    time: str,
    comm: str,
    tid: int,
    frames: tuple[str, ...] = (),
) -> str:
    args = f"comm={comm} pid={tid} prio=120 target_cpu={cpu:03d}"
    return sample(waker, waker_tid, cpu, time, f"sched:{event}", args, frames or ("try_to_wake_up",))


def parse(text: str) -> tuple[list[Record], ParseReport]:
    report = ParseReport()
    return list(parse_sched(io.BytesIO(text.encode()), report)), report


def intervals(records: list[Record], kind: EventKind, tid: int | None = None) -> list[TimedEvent]:
    return [
        r for r in records if isinstance(r, TimedEvent) and r.kind is kind and (tid is None or r.tid == tid)
    ]


def test_switch_pair_wakeup_and_on_cpu() -> None:
    records, report = parse(
        switch("worker", 100, 0, "1.000000", "S", "swapper/0", 0)
        + wake("sched_waking", "main", 200, 1, "1.500000", "worker", 100)
        + wake("sched_wakeup", "main", 200, 1, "1.500010", "worker", 100)
        + switch("main", 200, 1, "2.000000", "R+", "worker", 100)
        + switch("worker", 100, 1, "2.250000", "D", "main", 200)
    )
    (off,) = intervals(records, EventKind.OFF_CPU, 100)[:1]
    assert (off.start_ns, off.duration_ns, off.state, off.cpu) == (1_000_000_000, 1_000_000_000, "S", 0)
    assert (off.comm, off.tid, off.pid, off.waker_tid, off.line) == ("worker", 100, None, 200, 1)
    assert [f.name for f in off.stack] == list(reversed(SCHEDULE))  # root first
    assert off.attrs == {
        "wakeup_ns": 1_500_000_000,
        "wakeup_delay_ns": 500_000_000,
        "waker_comm": "main",
        "wakeup_in_interrupt": False,
        "resumed_cpu": 1,
    }
    preempted = intervals(records, EventKind.OFF_CPU, 200)[0]
    assert (preempted.state, preempted.duration_ns, preempted.waker_tid) == ("R", 250_000_000, None)
    (on,) = intervals(records, EventKind.ON_CPU, 100)
    assert (on.start_ns, on.duration_ns, on.cpu, on.stack, on.name) == (
        2_000_000_000,
        250_000_000,
        1,
        (),
        "on-cpu",
    )
    messages = [w.message for w in report.warnings]
    assert messages[0].startswith(
        "1 off-CPU interval(s) unclosed (duration unknown): 1 still open"
    )  # worker, D
    assert messages[1].startswith("1 on-CPU interval(s) unclosed: 1 running when the file ends")  # main


def test_waking_names_the_waker_before_wakeup() -> None:
    """sched_wakeup may run on the target CPU (an IPI), in another task's context: waking is the waker."""
    records, _ = parse(
        switch("worker", 100, 0, "1.000000", "S", "swapper/0", 0)
        + wake("sched_waking", "main", 200, 1, "1.100000", "worker", 100)
        + wake("sched_wakeup", "swapper/0", 0, 0, "1.100050", "worker", 100)
        + switch("swapper/0", 0, 0, "1.200000", "R", "worker", 100)
    )
    off = intervals(records, EventKind.OFF_CPU, 100)[0]
    assert (off.waker_tid, off.attrs["waker_comm"], off.attrs["wakeup_ns"]) == (200, "main", 1_100_000_000)


def test_wakeup_alone_still_names_a_waker() -> None:
    records, _ = parse(
        switch("worker", 100, 0, "1.000000", "S", "swapper/0", 0)
        + wake("sched_wakeup", "main", 200, 1, "1.100000", "worker", 100)
        + switch("main", 200, 1, "1.200000", "S", "worker", 100)
    )
    assert intervals(records, EventKind.OFF_CPU, 100)[0].waker_tid == 200


def test_wakeup_from_a_timer_interrupt_is_marked() -> None:
    records, _ = parse(
        switch("sleeper", 100, 0, "1.000000", "S", "swapper/0", 0)
        + wake("sched_waking", "busy", 300, 0, "6.000000", "sleeper", 100, TIMER_IRQ)
        + switch("busy", 300, 0, "6.000100", "R+", "sleeper", 100)
    )
    off = intervals(records, EventKind.OFF_CPU, 100)[0]
    assert (off.waker_tid, off.attrs["wakeup_in_interrupt"]) == (300, True)


def test_interval_still_open_at_the_end_is_unclosed() -> None:
    records, report = parse(switch("worker", 100, 0, "1.000000", "D", "swapper/0", 0))
    (off,) = intervals(records, EventKind.OFF_CPU)
    assert (off.duration_ns, off.state, off.attrs) == (None, "D", {})
    assert "1 still open when the file ends" in report.warnings[0].message


def test_thread_seen_running_without_a_switch_in_is_closed_there_and_marked_inferred() -> None:
    """perf misses switches (a thread resumed on an idle CPU often has none): the next sighting bounds it."""
    records, report = parse(
        switch("worker", 100, 0, "1.000000", "S", "swapper/0", 0)
        + wake("sched_waking", "worker", 100, 1, "3.000000", "other", 101)  # worker runs again
        + switch("worker", 100, 1, "3.500000", "S", "swapper/1", 0)
    )
    first, second = intervals(records, EventKind.OFF_CPU, 100)
    assert (first.start_ns, first.duration_ns, first.attrs) == (
        1_000_000_000,
        None,
        {"seen_running_ns": 3_000_000_000, "inferred_duration_ns": 2_000_000_000},
    )
    assert (second.start_ns, second.duration_ns, second.attrs) == (3_500_000_000, None, {})
    # From the sighting to its switch-out on the same CPU, the thread ran.
    (on,) = intervals(records, EventKind.ON_CPU, 100)
    assert (on.start_ns, on.duration_ns, on.cpu, on.attrs) == (
        3_000_000_000,
        None,
        1,
        {"inferred_duration_ns": 500_000_000},
    )
    assert "1 whose thread was next seen running" in report.warnings[0].message
    assert "marked inferred" in report.warnings[0].message


def test_a_sighting_on_another_cpu_than_the_switch_out_infers_no_run() -> None:
    records, _ = parse(
        switch("worker", 100, 0, "1.000000", "S", "swapper/0", 0)
        + wake("sched_waking", "worker", 100, 1, "3.000000", "other", 101)
        + switch("worker", 100, 0, "3.500000", "S", "swapper/0", 0)  # left CPU 0: events were lost
    )
    (on,) = intervals(records, EventKind.ON_CPU, 100)
    assert (on.duration_ns, on.attrs) == (None, {})


def test_the_futex_a_thread_entered_names_its_wait() -> None:
    """`syscalls:sys_enter_futex` recorded beside the sched events: its address goes to the wait."""
    enter = "uaddr: 0x55daf0cfb100, op: 0x00000080, val: 0x00000002, utime: 0x00000000"
    wake_op = "uaddr: 0x55daf0cfb100, op: 0x00000081, val: 0x00000001, utime: 0x00000000"
    records, _ = parse(
        sample("locker", 100, 0, "1.000000", "syscalls:sys_enter_futex", enter, ())
        + switch("locker", 100, 0, "1.000010", "S", "swapper/0", 0)
        + sample("holder", 200, 1, "1.002000", "syscalls:sys_enter_futex", wake_op, ())
        + wake("sched_waking", "holder", 200, 1, "1.002010", "locker", 100)
        + switch("swapper/0", 0, 0, "1.002050", "R", "locker", 100)
        + switch("locker", 100, 0, "1.003000", "S", "swapper/0", 0)  # a later sleep: no futex named
        + switch("swapper/0", 0, 0, "1.004000", "R", "locker", 100)
    )
    first, second = intervals(records, EventKind.OFF_CPU, 100)
    assert first.attrs["futex_uaddr"] == "0x55daf0cfb100"
    assert "futex_uaddr" not in second.attrs
    assert [r.event for r in records if isinstance(r, Sample)] == ["syscalls:sys_enter_futex"] * 2


def test_a_futex_call_that_did_not_block_names_no_wait() -> None:
    enter = "uaddr: 0x1000, op: 0x00000080, val: 0x00000002, utime: 0x00000000"
    records, _ = parse(
        sample("locker", 100, 0, "1.000000", "syscalls:sys_enter_futex", enter, ())
        + sample("locker", 100, 0, "1.000005", "syscalls:sys_exit_futex", "0xfffffffffffffff5", ())
        + switch("locker", 100, 0, "1.000010", "S", "swapper/0", 0)
        + switch("swapper/0", 0, 0, "1.002050", "R", "locker", 100)
    )
    (off,) = intervals(records, EventKind.OFF_CPU, 100)
    assert "futex_uaddr" not in off.attrs


def test_exiting_thread_opens_no_interval() -> None:
    records, _ = parse(
        switch("gone", 100, 0, "1.000000", "Z", "swapper/0", 0)
        + switch("dead", 101, 1, "1.000000", "X", "swapper/1", 0)
    )
    assert intervals(records, EventKind.OFF_CPU) == []


def test_idle_task_is_never_tracked() -> None:
    records, _ = parse(
        switch("swapper/0", 0, 0, "1.000000", "R", "worker", 100)
        + switch("worker", 100, 0, "1.500000", "S", "swapper/0", 0)
    )
    assert {r.tid for r in records if isinstance(r, TimedEvent)} == {100}
    (on,) = intervals(records, EventKind.ON_CPU)
    assert (on.start_ns, on.duration_ns) == (1_000_000_000, 500_000_000)


def test_on_cpu_interval_ending_on_another_cpu_is_unclosed() -> None:
    records, report = parse(
        switch("a", 100, 0, "1.000000", "S", "worker", 200)
        + switch("worker", 200, 1, "1.500000", "S", "b", 300)
    )
    on = intervals(records, EventKind.ON_CPU, 200)[0]
    assert on.duration_ns is None
    assert any("switch-out was not recorded" in w.message for w in report.warnings)


def test_sched_stat_delays_are_attached_when_the_kernel_has_them() -> None:
    records, _ = parse(
        switch("worker", 100, 0, "1.000000", "D", "swapper/0", 0)
        + sample(
            "main", 200, 1, "1.400000", "sched:sched_stat_iowait", "comm=worker pid=100 delay=400000000 [ns]"
        )
        + switch("main", 200, 1, "1.500000", "S", "worker", 100)
    )
    off = intervals(records, EventKind.OFF_CPU, 100)[0]
    assert (off.duration_ns, off.attrs["iowait_ns"]) == (500_000_000, 400_000_000)


def test_other_events_pass_through_as_samples() -> None:
    cpu_sample = sample("worker", 100, 0, "0.900000", "cpu-clock", "", ("hash_lookup",))
    records, _ = parse(cpu_sample + switch("worker", 100, 0, "1.000000", "S", "swapper/0", 0))
    samples = [r for r in records if isinstance(r, Sample)]
    assert [(s.event, s.tid, s.time_ns) for s in samples] == [("cpu-clock", 100, 900_000_000)]


def test_switch_without_arguments_gives_what_it_can() -> None:
    """`perf script -F comm,pid,tid,cpu,time,event,ip,sym,dso,period`: no tracepoint arguments."""
    text = (
        "worker   100/100   [000]     1.000000:          1      sched:sched_switch: \n"
        "\tffffffff81000001 __schedule ([kernel.kallsyms])\n\n"
        "main   200/200   [001]     1.500000:          1      sched:sched_waking: \n"
        "\tffffffff81000002 try_to_wake_up ([kernel.kallsyms])\n\n"
        "worker   100/100   [001]     2.000000:          1      sched:sched_switch: \n"
        "\tffffffff81000001 __schedule ([kernel.kallsyms])\n\n"
    )
    records, report = parse(text)
    first, second = intervals(records, EventKind.OFF_CPU)
    assert (first.state, first.duration_ns, first.waker_tid, first.pid) == (None, None, None, 100)
    assert first.attrs == {"seen_running_ns": 2_000_000_000, "inferred_duration_ns": 1_000_000_000}
    assert (second.start_ns, second.duration_ns) == (2_000_000_000, None)
    # main was seen (it woke someone) and never switched out: no on-CPU interval ends
    assert [(on.tid, on.duration_ns, on.attrs) for on in intervals(records, EventKind.ON_CPU)] == [
        (200, None, {})
    ]
    assert "no tracepoint arguments" in report.warnings[0].message


def test_plugin_spelling_of_the_arguments() -> None:
    """libtraceevent's sched plugin (trace-cmd, some perf builds) prints `comm:pid [prio] state`."""
    assert read_switch("cc1:20728 [120] R+ ==> perf exec:20718 [120]") == read_switch(
        "prev_comm=cc1 prev_pid=20728 prev_prio=120 prev_state=R+ "
        "==> next_comm=perf exec next_pid=20718 next_prio=120"
    )
    assert read_wakeup("perf:20697 [120] success=1 CPU:001") == read_wakeup(
        "comm=perf pid=20697 prio=120 target_cpu=001"
    )


def test_comm_with_spaces() -> None:
    switch_args = read_switch(
        "prev_comm=Web Content prev_pid=7 prev_prio=120 prev_state=S "
        "==> next_comm=V8 Worker next_pid=8 next_prio=120"
    )
    assert switch_args is not None
    assert (switch_args.prev_comm, switch_args.next_comm, switch_args.prev_state) == (
        "Web Content",
        "V8 Worker",
        "S",
    )


def test_importer_and_detect() -> None:
    head = switch("worker", 100, 0, "1.000000", "S", "swapper/0", 0).encode()
    assert (IMPORTER.name, IMPORTER.clock.value) == ("perf-sched", "monotonic")
    assert detect(head)
    assert not detect(sample("worker", 100, 0, "1.000000", "cpu-clock", "", ("f",)).encode())
    assert not detect(b"prev_comm=a sched:sched_switch: but not perf script\n")


@pytest.mark.parametrize("cut", [40, 200])
def test_truncated_tail_is_reported(cut: int) -> None:
    text = switch("worker", 100, 0, "1.000000", "S", "swapper/0", 0) + switch(
        "main", 200, 1, "2.000000", "S", "worker", 100
    )
    data = text.encode()
    records, report = parse(data[: len(data) - cut].decode())
    assert report.truncated
    assert len(intervals(records, EventKind.OFF_CPU, 100)) == 1


def test_a_switch_written_twice_counts_once() -> None:
    """perf occasionally writes one record twice (16 times in the reference capture)."""
    twice = switch("worker", 100, 0, "1.000000", "D", "main", 200)
    records, report = parse(twice + twice + switch("main", 200, 0, "2.000000", "S", "worker", 100))
    (off,) = intervals(records, EventKind.OFF_CPU, 100)
    assert (off.duration_ns, off.line) == (1_000_000_000, 1)
    assert report.warnings[0].message.startswith("1 sched_switch sample(s) repeated exactly")


def test_any_sample_of_the_thread_shows_it_running() -> None:
    records, _ = parse(
        switch("worker", 100, 0, "1.000000", "S", "swapper/0", 0)
        + sample("worker", 100, 1, "1.700000", "cpu-clock", "", ("hash_lookup",))
    )
    (off,) = intervals(records, EventKind.OFF_CPU)
    assert (off.duration_ns, off.attrs) == (
        None,
        {"seen_running_ns": 1_700_000_000, "inferred_duration_ns": 700_000_000},
    )


def test_pids_from_any_header_that_prints_them() -> None:
    """`perf script -F +pid,...` prints pid/tid; a thread first seen in a CPU sample keeps its pid."""
    text = (
        "db 70/71 [000] 0.500000: cpu-clock:\n\tffffffff81000001 hash_lookup+0x1 ([kernel.kallsyms])\n\n"
        + switch("swapper/1", 0, 1, "0.900000", "R", "db", 71)
        + switch("db", 71, 1, "1.000000", "D", "swapper/1", 0).replace("db 71 [001]", "db 70/71 [001]")
        + switch("swapper/1", 0, 1, "1.500000", "R", "db", 71)
    )
    records, _ = parse(text)
    assert {(r.kind, r.pid) for r in records if isinstance(r, TimedEvent)} == {
        (EventKind.ON_CPU, 70),
        (EventKind.OFF_CPU, 70),
    }
