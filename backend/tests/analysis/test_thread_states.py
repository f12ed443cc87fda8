"""Thread-state accounting on hand-made timelines whose answers can be read off the page."""

from __future__ import annotations

from stallscope.analysis.thread_states import (
    RUNNABLE,
    RUNNING,
    SLEEPING,
    STATES,
    UNINTERRUPTIBLE,
    UNKNOWN,
    SchedAccumulator,
    ThreadStates,
    TickAccumulator,
    Window,
    busiest_first,
    latency_of,
)

MS = 1_000_000
A = (1, 1, "a")
B = (1, 2, "b")


def feed_a(acc: SchedAccumulator) -> None:
    """Thread a, 0-100 ms:

    run 0-10 | S 10-35, runnable 35-40 (woken by b) | run 40-50 | D 50-68, runnable 68-70 |
    run 70-80 | preempted 80-85 | run 85-100
    """
    acc.on_cpu(A, 0, 10 * MS)
    acc.off_cpu(A, 10 * MS, 30 * MS, "S", 25 * MS, waker=(2, "b"), stack="futex_wait")
    acc.on_cpu(A, 40 * MS, 10 * MS)
    acc.off_cpu(A, 50 * MS, 20 * MS, "D", 18 * MS, waker=(0, "swapper/0"), stack="io_schedule")
    acc.on_cpu(A, 70 * MS, 10 * MS)
    acc.off_cpu(A, 80 * MS, 5 * MS, "R+", None, stack="preempt")
    acc.on_cpu(A, 85 * MS, 15 * MS)


def only(threads: list[ThreadStates], tid: int) -> ThreadStates:
    (thread,) = [t for t in threads if t.tid == tid]
    return thread


def test_every_state_of_a_fully_traced_thread_adds_up_to_its_wall_time() -> None:
    acc = SchedAccumulator()
    feed_a(acc)
    a = only(acc.result(), 1)
    assert a.wall_ns == 100 * MS
    assert a.state_ns == {
        RUNNING: 45 * MS,
        RUNNABLE: 12 * MS,
        SLEEPING: 25 * MS,
        UNINTERRUPTIBLE: 18 * MS,
        "other": 0,
        UNKNOWN: 0,
    }
    assert sum(a.state_ns.values()) == a.wall_ns
    assert a.share(RUNNING) == 0.45
    assert a.intervals == 7


def test_scheduler_latency_wakers_and_blocking_stacks() -> None:
    acc = SchedAccumulator()
    feed_a(acc)
    a = only(acc.result(), 1)
    assert (a.latency.count, a.latency.p50_ns, a.latency.p99_ns, a.latency.max_ns) == (
        3,
        5 * MS,
        5 * MS,
        5 * MS,
    )
    assert a.wakers == [(2, "b", 1), (0, "swapper/0", 1)]
    assert a.top_stacks[SLEEPING].stack == "futex_wait"
    assert a.top_stacks[UNINTERRUPTIBLE].ns == 18 * MS
    assert a.top_stacks[RUNNABLE].stack == "preempt"


def test_a_window_clips_intervals_and_the_wall_time() -> None:
    acc = SchedAccumulator(Window(20 * MS, 60 * MS))
    feed_a(acc)
    a = only(acc.result(), 1)
    assert a.wall_ns == 40 * MS
    assert (a.state_ns[RUNNING], a.state_ns[SLEEPING], a.state_ns[RUNNABLE]) == (10 * MS, 15 * MS, 5 * MS)
    assert a.state_ns[UNINTERRUPTIBLE] == 10 * MS
    assert a.state_ns[UNKNOWN] == 0
    assert a.latency.count == 1  # the wait at 35-40 ms; the one at 68-70 ms is after the window


def test_unclosed_intervals_count_what_is_known_and_leave_the_rest_unknown() -> None:
    acc = SchedAccumulator()
    acc.off_cpu(B, 0, None, "S", 5 * MS)
    acc.on_cpu(B, 20 * MS, 10 * MS)
    b = only(acc.result(), 2)
    assert b.wall_ns == 30 * MS
    assert (b.state_ns[SLEEPING], b.state_ns[RUNNING], b.state_ns[UNKNOWN]) == (5 * MS, 10 * MS, 15 * MS)
    assert b.latency.count == 0


def test_rare_states_are_other_by_letter_and_a_wakeup_outside_the_interval_is_ignored() -> None:
    acc = SchedAccumulator()
    acc.off_cpu(B, 0, 10 * MS, "T", None)
    acc.off_cpu(B, 10 * MS, 10 * MS, "S", 50 * MS)  # wakeup after the end: belongs to a later block
    b = only(acc.result(), 2)
    assert b.state_ns["other"] == 10 * MS
    assert b.other_states == {"T": 10 * MS}
    assert b.state_ns[SLEEPING] == 10 * MS
    assert b.state_ns[RUNNABLE] == 0


def test_intervals_outside_the_window_are_not_threads() -> None:
    acc = SchedAccumulator(Window(200 * MS, None))
    feed_a(acc)
    assert acc.result() == []


def test_percentiles_are_nearest_rank() -> None:
    lat = latency_of(list(range(1, 101)))
    assert (lat.count, lat.p50_ns, lat.p90_ns, lat.p99_ns, lat.max_ns) == (100, 50, 90, 99, 100)
    assert latency_of([]).count == 0


def test_ticks_from_the_proc_sampler() -> None:
    acc = TickAccumulator(50 * MS, Window(0, 1000 * MS))
    for i, state in enumerate("RRSD"):
        acc.add(A, i * 50 * MS, state)
    acc.add(A, 2000 * MS, "R")  # outside the window
    (a,) = acc.result()
    assert a.wall_ns == 200 * MS
    assert (a.state_ns[RUNNING], a.state_ns[SLEEPING], a.state_ns[UNINTERRUPTIBLE]) == (
        100 * MS,
        50 * MS,
        50 * MS,
    )
    assert set(a.state_ns) == set(STATES)


def test_busiest_first_puts_blocked_and_busy_threads_on_top() -> None:
    acc = SchedAccumulator()
    feed_a(acc)
    acc.off_cpu(B, 0, 100 * MS, "S", 100 * MS)
    assert [t.tid for t in busiest_first(acc.result())] == [1, 2]
