"""One host's digests as a detector reads them: CPU, off-CPU, events, threads, metrics, settings.

A detector asks questions ("what share of CPU samples has a frame matching `compaction_`?", "how
long did each thread spend in D under `rwsem_down`?"); the answers are computed here once per
question and cached, so detectors stay short and every detector counts the same way the views do:
a frame matches a term as the flame graph's search does (case-insensitive substring), and a stack
counts once however many of its frames match. Questions are answered over arrays of all the rows
at once (`profile_arrays.py`), in the rows' order: of equal weights, the first found is named first.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np
from numpy.typing import NDArray

from stallscope.analysis.config_keys import flatten
from stallscope.analysis.findings.digest import (
    CaptureDigest,
    CpuRow,
    DurationStats,
    MetricSummary,
    StackNames,
    ThreadSummary,
    WaitRow,
)
from stallscope.analysis.findings.profile_arrays import DigestArrays, ProcessKey, Rows, sum_by_key
from stallscope.analysis.findings.profile_arrays import ThreadKey as ThreadKey
from stallscope.analysis.findings.stack_table import Flags, Int64s
from stallscope.ingest.snapshot.model import KIND as SNAPSHOT_KIND

CPU_EVENT_NAMES = frozenset(
    {"cpu-clock", "task-clock", "cycles", "cpu-cycles", "instructions", "ref-cycles", "bus-cycles"}
)
"""Sampling events that stand for time on a CPU (`cycles:u`, `cpu-clock:ppp` read by their base)."""
FAULT_EVENT_NAMES = frozenset({"page-faults", "faults", "major-faults", "minor-faults"})


def event_base(event: str) -> str:
    """`cpu-clock:pppH` → `cpu-clock`; `sched:sched_switch` stays whole (a tracepoint)."""
    head, _, tail = event.partition(":")
    return head if tail and (not tail or all(c in "upkhHGPSIDW" for c in tail.rstrip(":"))) else event


def is_cpu_event(event: str) -> bool:
    base = event_base(event)
    return base in CPU_EVENT_NAMES or base.startswith("cpu/") or base.endswith("/cycles/")


def is_fault_event(event: str) -> bool:
    return event_base(event) in FAULT_EVENT_NAMES or event.startswith("exceptions:page_fault")


class Terms:
    """Frame-name terms matched as the flame graph's search matches: case-insensitive substrings."""

    def __init__(self, *terms: str) -> None:
        self.terms = tuple(t.lower() for t in terms)

    def __call__(self, name: str) -> bool:
        low = name.lower()
        return any(t in low for t in self.terms)


@dataclass(slots=True)
class Match:
    """What a question matched: weight (CPU: the event's unit; off-CPU: ns) out of a total."""

    weight: int = 0
    total: int = 0
    count: int = 0
    """Samples (CPU) or waits (off-CPU, events)."""
    by_thread: Counter[ThreadKey] = field(default_factory=Counter)
    callers: Counter[str] = field(default_factory=Counter)
    """The first frame outside the matched family below the match (who calls it)."""
    longest_ns: int = 0
    named_stacks: Callable[[], Counter[StackNames]] | None = field(default=None, repr=False, compare=False)
    """Names the matched stacks when `stacks` is first read: most questions never need the names of
    the thousands of stacks they matched, only their weight."""
    _stacks: Counter[StackNames] | None = field(default=None, init=False, repr=False, compare=False)

    @property
    def stacks(self) -> Counter[StackNames]:
        """Weight by matched stack (frame names, root first), heaviest first among equals as found."""
        if self._stacks is None:
            self._stacks = self.named_stacks() if self.named_stacks is not None else Counter()
        return self._stacks

    @property
    def share(self) -> float:
        return self.weight / self.total if self.total else 0.0


def heaviest_term(terms: Terms, match: Match) -> str:
    """The term whose stacks weigh most in `match`: the one flame-graph search that shows the most
    of what a detector matched (the search box takes one literal)."""
    weights = dict.fromkeys(terms.terms, 0)
    for stack, weight in match.stacks.items():
        low = [name.lower() for name in stack]
        for term in weights:
            if any(term in name for name in low):
                weights[term] += weight
    return max(weights, key=lambda term: (weights[term], -terms.terms.index(term)))


@dataclass(frozen=True, slots=True)
class ProfileThread:
    capture_id: int | None
    source: str
    """How its capture accounted threads: `sched` or `proc-sampler`."""
    summary: ThreadSummary


class Profile:
    """The captures of one host (or of a baseline side), read together."""

    def __init__(self, name: str, digests: Sequence[CaptureDigest]) -> None:
        self.name = name
        self.digests = list(digests)
        self._stacks: dict[int, DigestArrays] = {}

    @property
    def empty(self) -> bool:
        return not self.digests

    @cached_property
    def target_pids(self) -> frozenset[int]:
        """The processes the collector was pointed at (`--pid`), from its snapshot or sampler header;
        empty for a whole-host recording or files recorded by hand.

        A scheduler capture of one process also holds every thread that switched with it, seen only
        in passing (part of their time, none of their own wake-ups): findings are about the targets.
        """
        pids: set[int] = set()
        for d in self.digests:
            for kind, content in d.documents:
                if kind == SNAPSHOT_KIND:
                    sections = content.get("sections")
                    processes = sections.get("processes") if isinstance(sections, dict) else None
                    if isinstance(processes, dict):
                        pids.update(int(k) for k in processes if str(k).isdigit())
                elif kind == "proc-sampler-header":
                    targets = content.get("target_pids")
                    if isinstance(targets, list):
                        pids.update(t for t in targets if isinstance(t, int))
        return frozenset(pids)

    def is_target(self, pid: int | None) -> bool:
        targets = self.target_pids
        return not targets or pid in targets

    @cached_property
    def hosts(self) -> list[str]:
        return sorted({d.host for d in self.digests})

    @cached_property
    def capture_ids(self) -> list[int]:
        return sorted(d.capture_id for d in self.digests if d.capture_id is not None)

    @cached_property
    def time_range_ns(self) -> tuple[int, int] | None:
        starts = [d.start_ns for d in self.digests if d.start_ns is not None]
        ends = [d.end_ns for d in self.digests if d.end_ns is not None]
        return (min(starts), max(ends)) if starts and ends else None

    def _of(self, digest: CaptureDigest) -> DigestArrays:
        found = self._stacks.get(id(digest))
        if found is None or found.digest is not digest:
            found = self._stacks[id(digest)] = DigestArrays(digest)
        return found

    def stack(self, digest: CaptureDigest, index: int) -> StackNames:
        return self._of(digest).names(index)

    def first_match(self, digest: CaptureDigest, index: int, terms: Terms | None) -> int:
        """Index of the outermost frame of stack `index` matching `terms` (-1: none; no terms: the
        stack's depth, as if past its last frame)."""
        if index < 0:
            return -1 if terms is not None else 0
        if terms is None:
            return len(digest.stacks[index])
        return self._of(digest).first_list(terms.terms)[index]

    def in_kernel(self, digest: CaptureDigest, index: int) -> bool:
        """Whether the stack's innermost frame is a kernel frame (the sample was taken in the kernel)."""
        return index >= 0 and bool(self._of(digest).kinds()[0][index])

    def runs_user_code(self, digest: CaptureDigest, index: int) -> bool:
        """Whether any frame of the stack is not a kernel frame."""
        return index >= 0 and bool(self._of(digest).kinds()[1][index])

    # -- CPU samples -------------------------------------------------------------------------

    def cpu_rows(self) -> list[tuple[CaptureDigest, CpuRow]]:
        """CPU samples of the targets, one row per (event, thread, stack) and capture."""
        return self._cpu_rows

    @cached_property
    def _cpu_rows(self) -> list[tuple[CaptureDigest, CpuRow]]:
        return self._sample_rows(self._cpu)

    def _sample_rows(self, rows: Rows) -> list[tuple[CaptureDigest, CpuRow]]:
        return [
            (d, d.cpu[i]) for d, at in zip(self.digests, rows.positions, strict=True) for i in at.tolist()
        ]

    def _samples(self, event_test: Callable[[str], bool]) -> Rows:
        """The sample rows of events passing `event_test`, of the targets."""
        tables = [self._of(d).cpu for d in self.digests]
        positions = [table.chosen(event_test, self.target_pids) for table in tables]
        return Rows.of_samples(tables, positions)

    @cached_property
    def _cpu(self) -> Rows:
        return self._samples(is_cpu_event)

    @cached_property
    def cpu_total(self) -> int:
        return int(self._cpu.weight.sum())

    @cached_property
    def cpu_samples(self) -> int:
        return int(self._cpu.count.sum())

    def cpu_matching(self, terms: Terms, skip: Terms | None = None, also: Terms | None = None) -> Match:
        """CPU samples with a frame matching `terms` (and, with `also`, another matching `also`)."""
        return self._match(self._cpu, terms, skip, also)

    def cpu_in_kernel(self) -> Flags:
        """Per row of `cpu_rows()`, whether the sample was taken in the kernel."""
        in_kernel: Flags = self._per_row(self._cpu, lambda s: s.kinds()[0], False)
        return in_kernel

    def cpu_runs_user_code(self) -> Flags:
        """Per row of `cpu_rows()`, whether some frame of its stack is not a kernel frame."""
        user: Flags = self._per_row(self._cpu, lambda s: s.kinds()[1], False)
        return user

    def cpu_hits(self, terms: Terms) -> Flags:
        """Per row of `cpu_rows()`, whether its stack has a frame matching `terms`."""
        hit: Flags = self._first(self._cpu, terms) >= 0
        return hit

    def cpu_kernel(self) -> Match:
        """CPU samples taken in the kernel (the leaf frame is a kernel frame)."""
        return self._gather(self._cpu, self.cpu_in_kernel(), self.cpu_total)

    def cpu_where(self, chosen: Flags, total: int | None = None) -> Match:
        """The rows of `cpu_rows()` flagged in `chosen`, out of `total` (all CPU samples by default)."""
        return self._gather(self._cpu, chosen, self.cpu_total if total is None else total)

    def cpu_threads(self) -> tuple[list[ThreadKey], Int64s]:
        """The threads of `cpu_rows()` in the order they first occur, and per row its thread's index."""
        return self._cpu.thread_keys, self._cpu.thread

    def cpu_processes(self) -> tuple[list[ProcessKey], Int64s]:
        """The processes (pid, comm) of `cpu_rows()` in the order they first occur, and per row its
        process's index."""
        return self._cpu.process_keys, self._cpu.process

    def cpu_weights(self) -> Int64s:
        """Per row of `cpu_rows()`, its weight."""
        return self._cpu.weight

    def cpu_sample_counts(self) -> Int64s:
        """Per row of `cpu_rows()`, its samples."""
        return self._cpu.count

    def cpu_inclusive(self) -> dict[str, int]:
        """Each function's inclusive CPU weight: that of the samples whose stack holds it."""
        return self._inclusive(self._cpu, np.ones(len(self._cpu), dtype=bool), self._cpu.weight)

    def cpu_stack_weights(self, chosen: Flags | None = None) -> Counter[StackNames]:
        """Weight by stack (frame names) of the rows of `cpu_rows()` flagged in `chosen` (all by default)."""
        rows = self._cpu
        picked = np.arange(len(rows)) if chosen is None else np.flatnonzero(chosen)
        return self._named(rows, picked, rows.weight)()

    # -- fault samples -----------------------------------------------------------------------

    def fault_rows(self) -> list[tuple[CaptureDigest, CpuRow]]:
        return self._sample_rows(self._faults)

    @cached_property
    def _faults(self) -> Rows:
        return self._samples(is_fault_event)

    def faults_matching(self, terms: Terms, skip: Terms | None = None) -> Match:
        return self._match(self._faults, terms, skip)

    # -- off-CPU time and other timed events ---------------------------------------------------

    @cached_property
    def has_offcpu(self) -> bool:
        """Whether any capture of this side recorded off-CPU intervals (of the targets)."""
        return bool(len(self._offcpu))

    def wait_rows(self, kind: str = "off-cpu") -> Iterator[tuple[CaptureDigest, WaitRow]]:
        for d in self.digests:
            for row in d.waits:
                if row.kind == kind and self.is_target(row.pid):
                    yield d, row

    @cached_property
    def _offcpu(self) -> Rows:
        chosen = [
            [(i, row) for i, row in enumerate(d.waits) if row.kind == "off-cpu" and self.is_target(row.pid)]
            for d in self.digests
        ]
        positions = [np.array([i for i, _ in part], dtype=np.int64) for part in chosen]
        return Rows.of_waits([[row for _, row in part] for part in chosen], positions)

    def offcpu_matching(
        self,
        terms: Terms | None,
        states: Iterable[str] | None = None,
        skip: Terms | None = None,
        also: Terms | None = None,
        blocked_only: bool = False,
    ) -> Match:
        """Closed off-CPU time (ns) in `states` whose blocking stack matches `terms` (None: any).

        Whole intervals, switch-out to switch-in, as the off-CPU flame graph weighs them; with
        `blocked_only`, without the wake-up delay, as the thread accounting splits them (blocked,
        then runnable), so shares of a thread's time add up."""
        rows = self._offcpu
        within = self._in_states(rows, states) if states is not None else None
        weight = rows.blocked if blocked_only else rows.weight
        return self._match(rows, terms, skip, also, weight=weight, within=within)

    def offcpu_inclusive(self, states: Iterable[str]) -> tuple[dict[str, int], int]:
        """Each function's inclusive off-CPU time (whole intervals) in `states`, and the total."""
        rows = self._offcpu
        within = self._in_states(rows, states)
        return self._inclusive(rows, within, rows.weight), int(rows.weight[within].sum())

    # -- rules people write (watch signatures) ---------------------------------------------------

    def cpu_where_frames(
        self, frame_test: Callable[[str], bool], process_test: Callable[[str], bool] | None = None
    ) -> Match:
        """CPU samples whose stack has a frame passing `frame_test`, of processes passing
        `process_test` (every process without one), out of every CPU sample of the side."""
        return self._where_frames(self._cpu, frame_test, process_test, None)

    def offcpu_where_frames(
        self,
        frame_test: Callable[[str], bool],
        process_test: Callable[[str], bool] | None = None,
        states: Iterable[str] | None = None,
    ) -> Match:
        """Off-CPU time (whole intervals, ns) in `states` (all without) whose blocking stack has a
        frame passing `frame_test`, of processes passing `process_test`, out of all off-CPU time
        in those states."""
        rows = self._offcpu
        within = self._in_states(rows, states) if states is not None else None
        return self._where_frames(rows, frame_test, process_test, within)

    def _where_frames(
        self,
        rows: Rows,
        frame_test: Callable[[str], bool],
        process_test: Callable[[str], bool] | None,
        within: Flags | None,
    ) -> Match:
        chosen: Flags = self._per_row(rows, lambda s: s.stacks_with(frame_test), False)
        if process_test is not None:
            passing = np.array([bool(process_test(comm)) for _, comm in rows.process_keys], dtype=bool)
            chosen &= passing[rows.process]
        if within is not None:
            chosen &= within
        total = int(rows.weight[within].sum()) if within is not None else int(rows.weight.sum())
        return self._gather(rows, chosen, total)

    @staticmethod
    def _in_states(rows: Rows, states: Iterable[str]) -> Flags:
        """Per wait, whether its state (`?` when none was recorded) is one of `states`."""
        wanted = set(states)
        codes = np.array([state in wanted for state in rows.states] or [False], dtype=bool)
        within: Flags = codes[rows.state] if len(rows) else np.zeros(0, dtype=bool)
        return within

    def durations(self, kind: str, name: str) -> DurationStats | None:
        """The capture with the most such events: percentiles of different captures do not add."""
        found = [s for d in self.digests for s in d.durations if s.kind == kind and s.name == name]
        return max(found, key=lambda s: s.count) if found else None

    # -- threads, metrics, settings ------------------------------------------------------------

    @cached_property
    def threads(self) -> list[ProfileThread]:
        return [
            ProfileThread(d.capture_id, d.thread_source, t)
            for d in self.digests
            for t in d.threads
            if self.is_target(t.pid)
        ]

    @cached_property
    def thread_source(self) -> str:
        sources = {d.thread_source for d in self.digests}
        return "sched" if "sched" in sources else "proc-sampler" if "proc-sampler" in sources else "none"

    def sched_threads(self) -> list[ProfileThread]:
        """Threads accounted from scheduler intervals (exact), else from sampler ticks."""
        source = self.thread_source
        return [t for t in self.threads if t.source == source]

    def metrics(self, name: str) -> list[MetricSummary]:
        """The series of this name, the host-wide one first (no labels, or a label valued `all` or
        `total`, as sysstat's `cpu=all`), then by how many points they hold."""
        found = [m for d in self.digests for m in d.metrics if m.name == name]
        return sorted(found, key=lambda m: (not _host_wide(m), -m.count))

    def metric_names(self) -> set[str]:
        return {m.name for d in self.digests for m in d.metrics}

    @cached_property
    def settings(self) -> dict[tuple[str, str], str | None]:
        """The first snapshot's settings, flattened as the config diff reads them."""
        for d in self.digests:
            for kind, content in d.documents:
                if kind == SNAPSHOT_KIND:
                    return {key: s.value for key, s in flatten(content).settings.items()}
        return {}

    @cached_property
    def snapshot_capture_id(self) -> int | None:
        """The capture holding the first snapshot (the one `settings` reads)."""
        for d in self.digests:
            if any(kind == SNAPSHOT_KIND for kind, _ in d.documents):
                return d.capture_id
        return None

    @property
    def has_snapshot(self) -> bool:
        return bool(self.settings)

    def setting(self, section: str, key: str) -> str | None:
        return self.settings.get((section, key))

    # -- shared --------------------------------------------------------------------------------

    def _per_row(
        self, rows: Rows, per_stack: Callable[[DigestArrays], NDArray[Any]], none: int | bool
    ) -> Any:
        """A per-stack column of each digest, read at each row's stack (`none` where it has none)."""
        out = np.full(len(rows), none, dtype=bool if isinstance(none, bool) else np.int64)
        for digest, (lo, hi) in zip(self.digests, rows.bounds, strict=True):
            if lo == hi:
                continue
            stacks = rows.stack[lo:hi]
            has = stacks >= 0
            column = per_stack(self._of(digest))
            out[lo:hi][has] = column[stacks[has]]
        return out

    def _first(self, rows: Rows, terms: Terms | None) -> Int64s:
        """Per row, `first_match` of its stack."""
        if terms is None:
            lengths: Int64s = self._per_row(rows, lambda s: s.table.lengths, 0)
            return lengths
        found: Int64s = self._per_row(rows, lambda s: s.first(terms.terms), -1)
        return found

    def _match(
        self,
        rows: Rows,
        terms: Terms | None,
        skip: Terms | None,
        also: Terms | None = None,
        weight: Int64s | None = None,
        within: Flags | None = None,
    ) -> Match:
        """Rows (`within` them) whose stack matches `terms` (and `also`), out of all of them: weight,
        samples or waits, threads, stacks and the callers of the first matching frame."""
        weight = rows.weight if weight is None else weight
        first = self._first(rows, terms)
        chosen = first >= 0
        if also is not None:
            chosen &= self._first(rows, also) >= 0
        if within is not None:
            chosen &= within
        total = int(weight[within].sum()) if within is not None else int(weight.sum())
        m = self._gather(rows, chosen, total, weight)
        picked = np.flatnonzero(chosen)
        if len(picked):
            m.longest_ns = int(rows.longest[picked].max())
            keys, weights, found_at = sum_by_key(self._stack_keys(rows, picked), weight[picked])
            positions = first[picked][found_at].tolist()
            for (digest, index), at, w in zip(self._key_stacks(rows, keys), positions, weights, strict=True):
                caller = self._caller(digest, index, at, skip)
                if caller is not None:
                    m.callers[caller] += w
        return m

    def _gather(self, rows: Rows, chosen: Flags, total: int, weight: Int64s | None = None) -> Match:
        """The chosen rows' weight, count, threads and (named when read) stacks, out of `total`."""
        weight = rows.weight if weight is None else weight
        picked = np.flatnonzero(chosen)
        m = Match(total=total, weight=int(weight[picked].sum()), count=int(rows.count[picked].sum()))
        if len(picked):
            threads, thread_weights, _ = sum_by_key(rows.thread[picked], weight[picked])
            for thread, w in zip(threads.tolist(), thread_weights, strict=True):
                m.by_thread[rows.thread_keys[thread]] += w
            m.named_stacks = self._named(rows, picked, weight)
        return m

    def _named(self, rows: Rows, picked: Int64s, weight: Int64s) -> Callable[[], Counter[StackNames]]:
        """Weight by stack names of the picked rows, worked out when called (stacks found first first)."""

        def named() -> Counter[StackNames]:
            stacks: Counter[StackNames] = Counter()
            if not len(picked):
                return stacks
            keys, weights, _ = sum_by_key(self._stack_keys(rows, picked), weight[picked])
            for (digest, index), w in zip(self._key_stacks(rows, keys), weights, strict=True):
                stacks[self.stack(digest, index)] += w
            return stacks

        return named

    def _inclusive(self, rows: Rows, chosen: Flags, weight: Int64s) -> dict[str, int]:
        """Per function name, the weight of the chosen rows whose stack holds it (once however
        often it recurs), summed by stack first: one pass over the frames of the stacks the rows
        name, not a set of names per stack."""
        inclusive: Counter[str] = Counter()
        for digest, (lo, hi) in zip(self.digests, rows.bounds, strict=True):
            stacks, weights = rows.stack[lo:hi][chosen[lo:hi]], weight[lo:hi][chosen[lo:hi]]
            named = stacks >= 0
            if not named.any():
                continue
            arrays = self._of(digest)
            per_stack = np.zeros(len(arrays.table), dtype=np.int64)
            np.add.at(per_stack, stacks[named], weights[named])
            present = np.zeros(len(arrays.table), dtype=bool)
            present[stacks[named]] = True
            names, name_of_frame = arrays.name_ids()
            lengths = arrays.table.lengths
            element_stack = np.repeat(np.arange(len(lengths), dtype=np.int64), lengths)
            kept = present[element_stack]
            pairs = element_stack[kept] * len(names) + name_of_frame[arrays.table.frames[kept]]
            pairs.sort(kind="stable")  # already by stack: the stable sort (runs) only orders each stack
            pairs = pairs[np.concatenate(([True], pairs[1:] != pairs[:-1]))]  # each name once a stack
            sums = np.zeros(len(names), dtype=np.int64)
            np.add.at(sums, pairs % len(names), per_stack[pairs // len(names)])
            found = np.zeros(len(names), dtype=bool)
            found[pairs % len(names)] = True
            for name_id in np.flatnonzero(found).tolist():
                inclusive[names[name_id]] += int(sums[name_id])
        return dict(inclusive)

    def _stack_keys(self, rows: Rows, picked: Int64s) -> Int64s:
        """Per picked row, one number for (its digest, its stack)."""
        ordinal = np.searchsorted([hi for _, hi in rows.bounds], picked, side="right")
        keys: Int64s = ordinal.astype(np.int64) * STACK_KEY_SPAN + (rows.stack[picked] + 1)
        return keys

    def _key_stacks(self, rows: Rows, keys: Int64s) -> list[tuple[CaptureDigest, int]]:
        return [(self.digests[key // STACK_KEY_SPAN], key % STACK_KEY_SPAN - 1) for key in keys.tolist()]

    def _caller(self, digest: CaptureDigest, index: int, at: int, skip: Terms | None) -> str | None:
        """Who calls the frame at position `at` of the stack: the first frame above it that `skip`
        does not name."""
        stack = self.stack(digest, index)
        for name in reversed(stack[:at]):
            if skip is None or not skip(name):
                return name
        return None


STACK_KEY_SPAN = 1 << 32
"""(digest, stack) keys: the digest's position times this, plus the stack's index + 1."""


def _host_wide(m: MetricSummary) -> bool:
    return not m.labels or any(value.lower() in {"all", "total"} for _, value in m.labels)
