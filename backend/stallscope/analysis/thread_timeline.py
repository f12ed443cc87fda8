"""One thread's time laid out once: the reading of scheduler intervals every thread-state figure uses.

Each interval becomes pieces of state. An off-CPU wait in S or D is blocked until its wakeup and
runnable (waiting for a CPU) after it; a preempted one (R) is runnable throughout; an on-CPU interval
is running. An interval no event closed, but whose thread was seen running again, ends there: its
pieces are *inferred*, an upper bound on the wait. Pieces are clipped to the window.

A thread's pieces are then laid on its own line in time order (`lay`): where two overlap (a lost
switch) the earlier one keeps the time, and what no piece covers between the thread's first and last
observation is `unknown`. Breakdowns sum this line and strips draw it, so they cannot disagree.

Pieces are kept in typed arrays, about 30 bytes each, because the line can only be laid once every
interval of the thread is in: a capture of a million intervals is some 40 MB here, not 200.
"""

from __future__ import annotations

from array import array
from collections.abc import Hashable, Iterator
from dataclasses import dataclass

RUNNING = "running"
RUNNABLE = "runnable"
SLEEPING = "sleeping"
UNINTERRUPTIBLE = "uninterruptible"
OTHER = "other"
UNKNOWN = "unknown"
STATES = (RUNNING, RUNNABLE, SLEEPING, UNINTERRUPTIBLE, OTHER, UNKNOWN)
"""Every thread reports these, in this order; `other` sums the rarer kernel states."""
BLOCKED = (SLEEPING, UNINTERRUPTIBLE)

_CODE = {state: i for i, state in enumerate(STATES)}
_INFERRED_BIT = 8
_LETTER_SHIFT = 4
NO_REF = -1


def state_category(state: str | None) -> str:
    """The breakdown's category of a kernel task state letter (`R+` and `D|K` included).

    I (TASK_IDLE: a kernel thread waiting for work) is a sleep: it blocks nobody and does not count
    in the load average, unlike D.
    """
    letter = (state or "?")[:1]
    if letter in ("S", "I"):
        return SLEEPING
    if letter == "D":
        return UNINTERRUPTIBLE
    if letter == "R":
        return RUNNABLE
    return OTHER


@dataclass(frozen=True, slots=True)
class Window:
    """[start_ns, end_ns) on the intervals' clock; None leaves that side open."""

    start_ns: int | None = None
    end_ns: int | None = None

    def clip(self, start: int, end: int) -> tuple[int, int]:
        if self.start_ns is not None and start < self.start_ns:
            start = self.start_ns
        if self.end_ns is not None and end > self.end_ns:
            end = self.end_ns
        return start, end

    def overlap(self, start: int, end: int) -> int:
        lo, hi = self.clip(start, end)
        return hi - lo if hi > lo else 0

    def contains(self, t: int) -> bool:
        return (self.start_ns is None or t >= self.start_ns) and (self.end_ns is None or t < self.end_ns)

    def touches(self, start: int, end: int) -> bool:
        """It overlaps the window, or is instantaneous inside it."""
        return self.overlap(start, end) > 0 or (start == end and self.contains(start))


WHOLE = Window()
"""No bounds: everything the intervals cover."""


@dataclass(frozen=True, slots=True)
class Piece:
    """A stretch of one state on a thread's laid-out line."""

    start_ns: int
    end_ns: int
    state: str
    inferred: bool
    letter: str | None
    """The kernel letter of `other` time (T, t, P…); None for the named states."""
    stack: int
    """Index into the timeline's stack table, or NO_REF."""
    lock: int
    """Index into the timeline's lock table, or NO_REF."""


class Lane:
    """One thread's pieces, in the order they came."""

    __slots__ = ("codes", "ends", "locks", "stacks", "starts")

    def __init__(self) -> None:
        self.starts = array("q")
        self.ends = array("q")
        self.codes = array("i")
        self.stacks = array("q")
        self.locks = array("q")

    def add(self, start: int, end: int, code: int, stack: int = NO_REF, lock: int = NO_REF) -> None:
        self.starts.append(start)
        self.ends.append(end)
        self.codes.append(code)
        self.stacks.append(stack)
        self.locks.append(lock)

    def __len__(self) -> int:
        return len(self.starts)


class Timeline:
    """Pieces of many threads; the tables give stacks, locks and `other` letters their references."""

    def __init__(self, window: Window = Window()) -> None:
        self.window = window
        self.lanes: dict[tuple[int, str], Lane] = {}
        """By (tid, comm)."""
        self.stacks: list[Hashable] = []
        self._stack_refs: dict[Hashable, int] = {}
        self.locks: list[tuple[str, Hashable]] = []
        self._lock_refs: dict[tuple[str, Hashable], int] = {}
        self._letters: list[str] = ["?"]
        self._letter_refs: dict[str, int] = {"?": 0}

    def lane(self, thread: tuple[int, str]) -> Lane:
        lane = self.lanes.get(thread)
        if lane is None:
            lane = self.lanes[thread] = Lane()
        return lane

    def stack_ref(self, stack: Hashable | None) -> int:
        if stack is None:
            return NO_REF
        ref = self._stack_refs.get(stack)
        if ref is None:
            ref = self._stack_refs[stack] = len(self.stacks)
            self.stacks.append(stack)
        return ref

    def lock_ref(self, lock: tuple[str, Hashable] | None) -> int:
        if lock is None:
            return NO_REF
        ref = self._lock_refs.get(lock)
        if ref is None:
            ref = self._lock_refs[lock] = len(self.locks)
            self.locks.append(lock)
        return ref

    def code(self, state: str, inferred: bool, letter: str | None = None) -> int:
        code = _CODE[state] | (_INFERRED_BIT if inferred else 0)
        if state == OTHER:
            key = (letter or "?")[:1]
            ref = self._letter_refs.get(key)
            if ref is None:
                ref = self._letter_refs[key] = len(self._letters)
                self._letters.append(key)
            code |= ref << _LETTER_SHIFT
        return code

    def piece(
        self, lane: Lane, start: int, end: int, code: int, stack: int = NO_REF, lock: int = NO_REF
    ) -> int:
        """Add [start, end) clipped to the window; returns the nanoseconds kept."""
        lo, hi = self.window.clip(start, end)
        if hi <= lo:
            return 0
        lane.add(lo, hi, code, stack, lock)
        return hi - lo

    def observe(self, lane: Lane, t: int) -> None:
        """A moment the thread was seen with nothing known after it: it widens the line, as unknown."""
        if self.window.contains(t):
            lane.add(t, t, _CODE[UNKNOWN])

    def lay(self, lane: Lane) -> Iterator[tuple[int, int, int, int, int]]:
        """(start, end, code, stack, lock) in time order, overlaps cut, gaps as unknown pieces."""
        starts, ends, codes, stacks, locks = lane.starts, lane.ends, lane.codes, lane.stacks, lane.locks
        order = sorted(range(len(starts)), key=lambda i: (starts[i], ends[i]))
        unknown = _CODE[UNKNOWN]
        covered: int | None = None
        for i in order:
            start, end = starts[i], ends[i]
            if covered is not None:
                if start > covered:
                    yield covered, start, unknown, NO_REF, NO_REF
                elif start < covered:
                    start = covered
            if end > start:
                yield start, end, codes[i], stacks[i], locks[i]
            if covered is None or end > covered:
                covered = end

    def pieces(self, lane: Lane) -> list[Piece]:
        """The laid-out line as pieces (for one thread's strip; breakdowns read `lay` directly)."""
        return [
            Piece(start, end, self.state(code), self.inferred(code), self.letter(code), stack, lock)
            for start, end, code, stack, lock in self.lay(lane)
        ]

    @staticmethod
    def state(code: int) -> str:
        return STATES[code & (_INFERRED_BIT - 1)]

    @staticmethod
    def inferred(code: int) -> bool:
        return bool(code & _INFERRED_BIT)

    def letter(self, code: int) -> str | None:
        return self._letters[code >> _LETTER_SHIFT] if STATES[code & (_INFERRED_BIT - 1)] == OTHER else None
