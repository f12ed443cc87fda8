"""One host's digests as a detector reads them: CPU, off-CPU, events, threads, metrics, settings.

A detector asks questions ("what share of CPU samples has a frame matching `compaction_`?", "how
long did each thread spend in D under `rwsem_down`?"); the answers are computed here once per
question and cached, so detectors stay short and every detector counts the same way the views do:
a frame matches a term as the flame graph's search does (case-insensitive substring), and a stack
counts once however many of its frames match.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property

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
from stallscope.ingest.snapshot.model import KIND as SNAPSHOT_KIND

ThreadKey = tuple[int | None, int | None, str]
"""(pid, tid, comm)."""

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
    stacks: Counter[StackNames] = field(default_factory=Counter)
    callers: Counter[str] = field(default_factory=Counter)
    """The first frame outside the matched family below the match (who calls it)."""
    longest_ns: int = 0

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
        self._stack_cache: dict[tuple[int, int], StackNames] = {}
        self._hits: dict[tuple[int, tuple[str, ...]], frozenset[int]] = {}
        self._stack_kinds: dict[int, tuple[list[bool], list[bool]]] = {}

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

    def stack(self, digest: CaptureDigest, index: int) -> StackNames:
        key = (id(digest), index)
        names = self._stack_cache.get(key)
        if names is None:
            names = self._stack_cache[key] = digest.stack_names(index)
        return names

    def first_match(self, digest: CaptureDigest, index: int, terms: Terms | None) -> int:
        """Index of the outermost frame of stack `index` matching `terms` (-1: none; no terms: the
        stack's depth, as if past its last frame). Frames are matched once per digest, and a stack
        without any matching frame is ruled out by a set test, which keeps detectors quick on
        captures of tens of thousands of distinct stacks."""
        if index < 0:
            return -1 if terms is not None else 0
        ids = digest.stacks[index]
        if terms is None:
            return len(ids)
        key = (id(digest), terms.terms)
        hits = self._hits.get(key)
        if hits is None:
            hits = self._hits[key] = frozenset(i for i, (name, _) in enumerate(digest.frames) if terms(name))
        if hits.isdisjoint(ids):
            return -1
        return next(i for i, frame in enumerate(ids) if frame in hits)

    def in_kernel(self, digest: CaptureDigest, index: int) -> bool:
        """Whether the stack's innermost frame is a kernel frame (the sample was taken in the kernel)."""
        return index >= 0 and self._kinds(digest)[0][index]

    def runs_user_code(self, digest: CaptureDigest, index: int) -> bool:
        """Whether any frame of the stack is not a kernel frame."""
        return index >= 0 and self._kinds(digest)[1][index]

    def _kinds(self, digest: CaptureDigest) -> tuple[list[bool], list[bool]]:
        """Per stack of a digest, once: (leaf in the kernel, some frame outside it)."""
        known = self._stack_kinds.get(id(digest))
        if known is None:
            kernel = [kind == "kernel" for _, kind in digest.frames]
            leaf = [bool(ids) and kernel[ids[-1]] for ids in digest.stacks]
            user = [not all(kernel[i] for i in ids) for ids in digest.stacks]
            known = self._stack_kinds[id(digest)] = (leaf, user)
        return known

    # -- CPU samples -------------------------------------------------------------------------

    def cpu_rows(self) -> list[tuple[CaptureDigest, CpuRow]]:
        """CPU samples of the targets (every detector reads them: kept once)."""
        return self._cpu_rows

    @cached_property
    def _cpu_rows(self) -> list[tuple[CaptureDigest, CpuRow]]:
        return [
            (d, row)
            for d in self.digests
            for row in d.cpu
            if is_cpu_event(row.event) and self.is_target(row.pid)
        ]

    @cached_property
    def cpu_total(self) -> int:
        return sum(row.weight for _, row in self.cpu_rows())

    @cached_property
    def cpu_samples(self) -> int:
        return sum(row.samples for _, row in self.cpu_rows())

    def cpu_matching(self, terms: Terms, skip: Terms | None = None, also: Terms | None = None) -> Match:
        """CPU samples with a frame matching `terms` (and, with `also`, another matching `also`)."""
        return self._match_samples(self.cpu_rows(), terms, skip, also)

    def cpu_kernel(self) -> Match:
        """CPU samples taken in the kernel (the leaf frame is a kernel frame)."""
        m = Match(total=self.cpu_total)
        for d, row in self.cpu_rows():
            if self.in_kernel(d, row.stack):
                m.weight += row.weight
                m.count += row.samples
                m.by_thread[(row.pid, row.tid, row.comm)] += row.weight
                m.stacks[self.stack(d, row.stack)] += row.weight
        return m

    # -- fault samples -----------------------------------------------------------------------

    def fault_rows(self) -> Iterator[tuple[CaptureDigest, CpuRow]]:
        for d in self.digests:
            for row in d.cpu:
                if is_fault_event(row.event) and self.is_target(row.pid):
                    yield d, row

    def faults_matching(self, terms: Terms, skip: Terms | None = None) -> Match:
        return self._match_samples(self.fault_rows(), terms, skip)

    # -- off-CPU time and other timed events ---------------------------------------------------

    @cached_property
    def has_offcpu(self) -> bool:
        """Whether any capture of this side recorded off-CPU intervals (of the targets)."""
        return any(True for _ in self.wait_rows())

    def wait_rows(self, kind: str = "off-cpu") -> Iterator[tuple[CaptureDigest, WaitRow]]:
        for d in self.digests:
            for row in d.waits:
                if row.kind == kind and self.is_target(row.pid):
                    yield d, row

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
        wanted = set(states) if states is not None else None
        m = Match()
        for d, row in self.wait_rows():
            if wanted is not None and (row.state or "?") not in wanted:
                continue
            weight = row.blocked_ns if blocked_only else row.total_ns
            m.total += weight
            at = self.first_match(d, row.stack, terms)
            if at < 0 or (also is not None and self.first_match(d, row.stack, also) < 0):
                continue
            stack = self.stack(d, row.stack)
            self._add(m, stack, at, skip, weight, row.count, (row.pid, row.tid, row.comm))
            m.longest_ns = max(m.longest_ns, row.max_ns)
        return m

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

    def _match_samples(
        self,
        rows: Iterable[tuple[CaptureDigest, CpuRow]],
        terms: Terms,
        skip: Terms | None,
        also: Terms | None = None,
    ) -> Match:
        m = Match()
        for d, row in rows:
            m.total += row.weight
            at = self.first_match(d, row.stack, terms)
            if at < 0 or (also is not None and self.first_match(d, row.stack, also) < 0):
                continue
            stack = self.stack(d, row.stack)
            self._add(m, stack, at, skip, row.weight, row.samples, (row.pid, row.tid, row.comm))
        return m

    @staticmethod
    def _add(
        m: Match, stack: StackNames, at: int, skip: Terms | None, weight: int, count: int, thread: ThreadKey
    ) -> None:
        m.weight += weight
        m.count += count
        m.by_thread[thread] += weight
        m.stacks[stack] += weight
        for name in reversed(stack[:at]):
            if skip is None or not skip(name):
                m.callers[name] += weight
                break


def _host_wide(m: MetricSummary) -> bool:
    return not m.labels or any(value.lower() in {"all", "total"} for _, value in m.labels)
