"""Scheduler tracepoint arguments, as perf script prints them on the sample header line.

Two spellings exist. The kernel's own format strings (what perf and ftrace print by default):

    prev_comm=cc1 prev_pid=20728 prev_prio=120 prev_state=R+ ==> next_comm=perf next_pid=20718 next_prio=120
    comm=perf pid=20697 prio=120 target_cpu=001                          (older kernels add success=1)
    comm=fsync_io pid=20432 delay=1234567 [ns]                           (sched_stat_sleep/iowait/...)

and libtraceevent's sched plugin (trace-cmd, perf built with plugins):

    cc1:20728 [120] R+ ==> perf:20718 [120]
    perf:20697 [120] CPU:001                                             (older: success=1 CPU:001)

Beside them, `syscalls:sys_enter_futex` (`uaddr: 0x55daf0cfb100, op: 0x00000080, val: …`) names the
lock a thread is about to wait on; `perf trace` prints the same fields with the command named
(`op: WAIT|PRIVATE_FLAG`).

Comms may hold spaces, so every pattern anchors on the field that follows the comm; a comm is at most
63 characters (the kernel's hold 15), so that a long line that is no switch is given up at once
rather than tried at every `pid=` in it (a 300 KB line took seconds). Numbers have as many digits as
their columns hold (`value_ranges`): arguments with a longer one are not read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from stallscope.ingest.model import Stack

_SWITCH = (
    re.compile(
        r"prev_comm=(.{0,63}) prev_pid=(-?\d{1,9}) prev_prio=-?\d+ prev_state=(\S+) "
        r"==> next_comm=(.{0,63}) next_pid=(-?\d{1,9}) next_prio=-?\d+"
    ),
    re.compile(r"(.{0,63}):(-?\d{1,9}) \[-?\d+\] (\S+) ==> (.{0,63}):(-?\d{1,9}) \[-?\d+\]"),
)
_WAKEUP = (
    re.compile(r"comm=(.{0,63}) pid=(-?\d{1,9}) prio=-?\d+(?: success=\d+)? target_cpu=(\d{1,4})"),
    re.compile(r"(.{0,63}):(-?\d{1,9}) \[-?\d+\](?: success=\d+)? CPU:(\d{1,4})"),
)
_STAT = re.compile(r"comm=(.{0,63}) pid=(-?\d{1,9}) (?:delay|runtime)=(\d{1,18}) \[ns\]")
_FUTEX = re.compile(r"uaddr: (?:0x)?([0-9a-fA-F]{1,16}), op: (?:0x([0-9a-fA-F]{1,16})|([A-Z_|]{1,80}))")

EXIT_STATES = frozenset({"X", "Z", "X|Z", "Z|X"})
"""A task's last switch: dead (X) or a zombie waiting for its parent (Z). It never comes back."""


@dataclass(frozen=True, slots=True)
class Switch:
    prev_comm: str
    prev_tid: int
    prev_state: str
    next_comm: str
    next_tid: int


@dataclass(frozen=True, slots=True)
class Wakeup:
    comm: str
    tid: int
    target_cpu: int


def read_switch(args: str) -> Switch | None:
    for pattern in _SWITCH:
        match = pattern.match(args)
        if match is not None:
            prev_comm, prev_tid, state, next_comm, next_tid = match.groups()
            return Switch(prev_comm, int(prev_tid), state, next_comm, int(next_tid))
    return None


def read_wakeup(args: str) -> Wakeup | None:
    for pattern in _WAKEUP:
        match = pattern.match(args)
        if match is not None:
            comm, tid, cpu = match.groups()
            return Wakeup(comm, int(tid), int(cpu))
    return None


def read_stat(args: str) -> tuple[int, int] | None:
    """(tid, delay_ns) of a `sched_stat_*` event."""
    match = _STAT.match(args)
    return None if match is None else (int(match.group(2)), int(match.group(3)))


FUTEX_WAIT_COMMANDS = frozenset({"WAIT", "WAIT_BITSET", "LOCK_PI", "LOCK_PI2", "WAIT_REQUEUE_PI"})
"""futex(2) commands that put the caller to sleep until the word at `uaddr` changes hands."""
_FUTEX_COMMANDS = (
    "WAIT",
    "WAKE",
    "FD",
    "REQUEUE",
    "CMP_REQUEUE",
    "WAKE_OP",
    "LOCK_PI",
    "UNLOCK_PI",
    "TRYLOCK_PI",
    "WAIT_BITSET",
    "WAKE_BITSET",
    "WAIT_REQUEUE_PI",
    "CMP_REQUEUE_PI",
    "LOCK_PI2",
)
_FUTEX_CMD_MASK = 0x7F
"""The command bits of `op`; 128 is FUTEX_PRIVATE_FLAG, 256 FUTEX_CLOCK_REALTIME."""


@dataclass(frozen=True, slots=True)
class FutexCall:
    uaddr: int
    command: str
    """WAIT, WAKE, WAIT_BITSET…; `?` for a number futex(2) does not define."""

    @property
    def waits(self) -> bool:
        return self.command in FUTEX_WAIT_COMMANDS


def read_futex(args: str) -> FutexCall | None:
    """A futex call's address and command, in either spelling that carries them.

    The `syscalls:sys_enter_futex` tracepoint prints numbers (`uaddr: 0x55daf0cfb100, op: 0x00000080`);
    `perf trace` names the command (`uaddr: 0x7fee8b6c9a4c, op: WAIT|PRIVATE_FLAG`).
    """
    match = _FUTEX.match(args)
    if match is None:
        return None
    uaddr, number, names = match.groups()
    if number is not None:
        cmd = int(number, 16) & _FUTEX_CMD_MASK
        command = _FUTEX_COMMANDS[cmd] if cmd < len(_FUTEX_COMMANDS) else "?"
    else:
        command = names.split("|", 1)[0]
    return FutexCall(int(uaddr, 16), command)


def off_cpu_state(printed: str) -> str:
    """`R+` (preempted) reads as `R`, like a plain `R`; every other state is kept as printed."""
    return "R" if printed == "R+" else printed


_INTERRUPT_ENTRIES = (
    "asm_sysvec_",
    "asm_common_interrupt",
    "asm_spurious_interrupt",
    "irq_exit_rcu",
    "__irq_exit_rcu",
)


FUTEX_WAIT_FRAMES = ("futex_wait", "futex_do_wait", "__futex_wait", "futex_lock_pi", "futex_wait_requeue_pi")
"""Kernel functions a thread blocks in while it waits on a futex (6.x: futex_wait_queue,
futex_do_wait; older: futex_wait_queue_me)."""


def is_futex_wait_frame(name: str) -> bool:
    return name.startswith(FUTEX_WAIT_FRAMES)


def in_interrupt_context(stack: Stack) -> bool:
    """True when a (kernel) stack passes through an interrupt entry: hardware or timer interrupt work."""
    return any(frame.name.startswith(_INTERRUPT_ENTRIES) for frame in stack)
