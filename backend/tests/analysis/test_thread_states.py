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
    SchedInterval,
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
    assert sum(a.inferred_ns.values()) == a.inferred_intervals == 0


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
    assert a.wakers == [(0, "swapper/0", 1), (2, "b", 1)]  # one wake each: ties in thread-id order
    assert [top.stack for top in a.top_stacks[SLEEPING]] == ["futex_wait"]
    assert a.top_stacks[UNINTERRUPTIBLE][0].ns == 18 * MS
    assert a.top_stacks[RUNNABLE][0].stack == "preempt"


def test_a_window_clips_intervals_and_the_wall_time() -> None:
    acc = SchedAccumulator(Window(20 * MS, 60 * MS))
    feed_a(acc)
    a = only(acc.result(), 1)
    assert a.wall_ns == 40 * MS
    assert (a.state_ns[RUNNING], a.state_ns[SLEEPING], a.state_ns[RUNNABLE]) == (10 * MS, 15 * MS, 5 * MS)
    assert a.state_ns[UNINTERRUPTIBLE] == 10 * MS
    assert a.state_ns[UNKNOWN] == 0
    assert a.latency.count == 1  # the wait at 35-40 ms; the one at 68-70 ms is after the window


def test_a_wait_no_event_closed_ends_where_the_thread_was_next_seen_running() -> None:
    """D from 0, no wakeup and no switch-in recorded; the thread's next sample at 30 ms bounds it."""
    acc = SchedAccumulator()
    acc.off_cpu(B, 0, None, "D", None, stack="io_schedule", inferred_ns=30 * MS)
    acc.on_cpu(B, 30 * MS, None, inferred_ns=10 * MS)  # seen at 30 ms, switched out at 40 ms
    acc.off_cpu(B, 40 * MS, 10 * MS, "D", 8 * MS, stack="io_schedule")
    b = only(acc.result(), 2)
    assert b.wall_ns == 50 * MS
    assert (b.state_ns[UNINTERRUPTIBLE], b.state_ns[RUNNING], b.state_ns[RUNNABLE]) == (
        38 * MS,
        10 * MS,
        2 * MS,
    )
    assert b.state_ns[UNKNOWN] == 0
    assert (b.inferred_ns[UNINTERRUPTIBLE], b.inferred_ns[RUNNING]) == (30 * MS, 10 * MS)
    assert b.inferred_intervals == 2
    assert b.latency.count == 1  # inferred ends are bounds, not waits that happened
    (top,) = b.top_stacks[UNINTERRUPTIBLE]
    assert (top.count, top.ns, top.longest_ns) == (2, 38 * MS, 30 * MS)


def test_an_inferred_wait_with_a_recorded_wakeup_is_exact_until_the_wakeup() -> None:
    acc = SchedAccumulator()
    acc.off_cpu(B, 0, None, "S", 5 * MS, inferred_ns=20 * MS)
    b = only(acc.result(), 2)
    assert (b.state_ns[SLEEPING], b.state_ns[RUNNABLE]) == (5 * MS, 15 * MS)
    assert (b.inferred_ns[SLEEPING], b.inferred_ns[RUNNABLE]) == (0, 15 * MS)


def test_only_what_nothing_bounds_is_unknown() -> None:
    acc = SchedAccumulator()
    acc.off_cpu(B, 0, None, "S", 5 * MS)  # woken at 5 ms, never seen again until its next interval
    acc.on_cpu(B, 20 * MS, 10 * MS)
    acc.off_cpu(B, 30 * MS, None, "D", None)  # still off when the capture ended
    b = only(acc.result(), 2)
    assert b.wall_ns == 30 * MS
    assert (b.state_ns[SLEEPING], b.state_ns[RUNNING], b.state_ns[UNKNOWN]) == (5 * MS, 10 * MS, 15 * MS)
    assert b.latency.count == 0


def test_overlapping_intervals_count_their_time_once() -> None:
    """A lost switch makes two intervals claim the same time: the earlier keeps it."""
    acc = SchedAccumulator()
    acc.off_cpu(B, 0, 20 * MS, "D", None)
    acc.on_cpu(B, 10 * MS, 20 * MS)
    b = only(acc.result(), 2)
    assert b.wall_ns == 30 * MS
    assert (b.state_ns[UNINTERRUPTIBLE], b.state_ns[RUNNING]) == (20 * MS, 10 * MS)
    assert sum(b.state_ns.values()) == b.wall_ns


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


def test_the_heaviest_stacks_per_state_not_only_the_longest() -> None:
    """A thread whose normal sleep is a 20 ms timer, and which waits on a lock now and then."""
    acc = SchedAccumulator()
    t = 0
    for i in range(12):
        acc.off_cpu(B, t, 20 * MS, "S", 20 * MS, stack="nanosleep")
        t += 20 * MS
        if i % 2 == 0:
            acc.off_cpu(B, t, 3 * MS, "S", 3 * MS, stack="futex_wait")
            t += 3 * MS
    for k in range(6):  # four more sleeping stacks, each lighter than the last
        acc.off_cpu(B, t, (5 - k) * 100_000, "S", (5 - k) * 100_000, stack=f"other{k}")
        t += (5 - k) * 100_000
    b = only(acc.result(), 2)
    tops = b.top_stacks[SLEEPING]
    assert [top.stack for top in tops] == ["nanosleep", "futex_wait", "other0", "other1", "other2"]
    assert [(top.count, top.ns, top.longest_ns) for top in tops[:2]] == [
        (12, 240 * MS, 20 * MS),
        (6, 18 * MS, 3 * MS),
    ]
    assert tops[0].share == 240 * MS / b.state_ns[SLEEPING]


def feed_locks(acc: SchedAccumulator) -> None:
    """Blocked until the wakeup on a futex counts as waiting on it; runnable after it does not."""
    acc.off_cpu(A, 0, 4 * MS, "S", 3 * MS, stack="futex_wait", futex="0x1000")
    acc.off_cpu(A, 4 * MS, 2 * MS, "S", 2 * MS, stack="futex_wait", futex="0x2000")
    acc.off_cpu(A, 6 * MS, 5 * MS, "S", 5 * MS, stack="futex_wait:site")
    acc.off_cpu(A, 11 * MS, 9 * MS, "S", 9 * MS, stack="nanosleep")
    acc.off_cpu(A, 20 * MS, None, "S", None, stack="futex_wait", futex="0x1000", inferred_ns=6 * MS)


def test_futex_waits_by_address_and_by_site() -> None:
    acc = SchedAccumulator()
    feed_locks(acc)
    (a,) = acc.result(futex_stack=lambda stack: str(stack).startswith("futex"))
    assert [(w.lock, w.count, w.total_ns, w.longest_ns, w.inferred_ns) for w in a.lock_waits] == [
        (("address", "0x1000"), 2, 9 * MS, 6 * MS, 6 * MS),
        (("site", "futex_wait:site"), 1, 5 * MS, 5 * MS, 0),
        (("address", "0x2000"), 1, 2 * MS, 2 * MS, 0),
    ]
    plain = SchedAccumulator()
    feed_locks(plain)
    (a,) = plain.result()  # no way to read stacks: only the waits that named their futex
    assert [w.lock[0] for w in a.lock_waits] == ["address", "address"]


def test_a_pid_learnt_later_names_the_whole_thread() -> None:
    acc = SchedAccumulator()
    acc.on_cpu((None, 7, "w"), 0, 10 * MS)
    acc.off_cpu((70, 7, "w"), 10 * MS, 10 * MS, "S", None)
    (w,) = acc.result()
    assert (w.pid, w.tid, w.wall_ns) == (70, 7, 20 * MS)


def test_one_interval_record_feeds_the_same_accounting() -> None:
    acc = SchedAccumulator()
    acc.add(SchedInterval(False, 1, 2, "b", 0, 10 * MS, state="D", wakeup_delay_ns=6 * MS, stack="io"))
    acc.add(SchedInterval(True, 1, 2, "b", 10 * MS, None, inferred_ns=5 * MS))
    b = only(acc.result(), 2)
    assert (b.state_ns[UNINTERRUPTIBLE], b.state_ns[RUNNABLE], b.state_ns[RUNNING]) == (
        6 * MS,
        4 * MS,
        5 * MS,
    )
    assert b.inferred_ns[RUNNING] == 5 * MS


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
