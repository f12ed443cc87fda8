"""Samples to folded stacks (`comm;caller;callee count`), byte-compatible with stackcollapse-perf.pl.

Same options as the reference tools: `pid`/`tid` add ids to the root frame, `kernel`/`jit` (or `all`)
add `_[k]`/`_[j]` to frames from the kernel or a JIT map. Inlined frames from perf-map-agent chains
always get `_[i]`, as both references do. Lines are sorted bytewise and weighted by period when the
file has one.

Like the references, `fold` keeps one event only, by default the first one seen, and counts the
samples it skips: summing cycles with instructions, or page faults with context switches, means
nothing. `fold_by_event` keeps every event apart instead (what the server shows).

Samples with an empty call chain are left out, as inferno does, unless `keep_empty_stacks` asks for
them as `comm;[no stack]`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import BinaryIO

from stallscope.ingest.model import Frame, FrameKind, ParseReport, Sample, Stack
from stallscope.ingest.perf_script import NamingOptions
from stallscope.ingest.perf_script.header import normalise_event

NO_STACK_FRAME = "[no stack]"
_WRITE_BATCH_LINES = 4096


@dataclass(frozen=True, slots=True)
class FoldOptions:
    """The switches of `stackcollapse-perf.pl`, named as its command-line flags."""

    pid: bool = False
    """Root frame `comm-PID` (`comm-?` when the file prints thread ids only)."""
    tid: bool = False
    """Root frame `comm-PID/TID`."""
    kernel: bool = False
    """Suffix `_[k]` on kernel frames."""
    jit: bool = False
    """Suffix `_[j]` on frames from a perf map or a jitdump `.so`."""
    all: bool = False
    """Both `kernel` and `jit` (`_[i]` on inlined frames is always on, as in the references)."""
    addrs: bool = False
    """Name unresolved frames `[module <address>]`."""
    event: str | None = None
    """Keep this event only (modifiers such as `:pppH` are ignored); None keeps the first seen."""
    keep_empty_stacks: bool = False
    """Write samples without a call chain as `comm;[no stack]` instead of leaving them out."""

    @property
    def naming(self) -> NamingOptions:
        """What the parser must know: `addrs` changes frame names, not just their annotation."""
        return NamingOptions(addrs=self.addrs)


@dataclass(slots=True)
class FoldResult:
    """Folded stacks of one event, and what was left out."""

    event: str | None
    counts: dict[str, int] = field(default_factory=dict)
    """Folded stack -> summed weight."""
    samples: int = 0
    empty_stacks: int = 0
    """Samples without a call chain (left out unless `keep_empty_stacks`)."""
    first_empty_line: int = 0
    skipped_events: dict[str, int] = field(default_factory=dict)
    """Other events -> samples skipped (single-event folding only)."""
    first_skipped_lines: dict[str, int] = field(default_factory=dict)
    """Other events -> line of their first sample, for warnings."""


class _Accumulator:
    """Weights by (root name, stack object): interned stacks make `id(stack)` a cheap, exact key."""

    __slots__ = ("counts", "empty", "first_empty", "samples", "stacks")

    def __init__(self) -> None:
        self.counts: dict[tuple[str, int], int] = {}
        self.stacks: dict[int, Stack] = {}
        self.samples = 0
        self.empty = 0
        self.first_empty = 0

    def add(self, root: str, stack: Stack, weight: int) -> None:
        key = (root, id(stack))
        found = self.counts.get(key)
        if found is None:
            self.counts[key] = weight
            self.stacks[id(stack)] = stack  # keeps the object, hence its id, alive
        else:
            self.counts[key] = found + weight


class StackFolder:
    """Feed it samples one by one (`add`), then read the folded counts."""

    def __init__(self, options: FoldOptions | None = None, *, by_event: bool = False) -> None:
        self.options = options or FoldOptions()
        self._by_event = by_event
        self._wanted = None if by_event or self.options.event is None else normalise_event(self.options.event)
        self._accumulators: dict[str, _Accumulator] = {}
        self._skipped: dict[str, int] = {}
        self._first_skipped: dict[str, int] = {}
        self._roots: dict[tuple[str, int | None, int | None], str] = {}

    def add(self, sample: Sample) -> None:
        event = sample.event
        if not self._by_event:
            if self._wanted is None:
                self._wanted = event
            elif event != self._wanted:
                if event not in self._skipped:
                    self._skipped[event] = 0
                    self._first_skipped[event] = sample.line
                self._skipped[event] += 1
                return
        accumulator = self._accumulators.get(event)
        if accumulator is None:
            accumulator = self._accumulators[event] = _Accumulator()
        accumulator.samples += 1
        if not sample.stack:
            accumulator.empty += 1
            if accumulator.first_empty == 0:
                accumulator.first_empty = sample.line
            if not self.options.keep_empty_stacks:
                return
        root_key = (sample.comm, sample.pid, sample.tid)
        root = self._roots.get(root_key)
        if root is None:
            root = self._roots[root_key] = self._root(*root_key)
        accumulator.add(root, sample.stack, sample.weight)

    def add_all(self, samples: Iterable[Sample]) -> None:
        """`add` each sample; those of the event just added with a stack take a shortcut.

        The shortcut is `add` with its look-ups kept in local names, as this loop runs once a sample
        and its method calls cost as much as the parse of a cached stack.
        """
        add, roots, root_of = self.add, self._roots, self._root
        by_comm = not (self.options.pid or self.options.tid)  # then the root depends on comm alone
        event: str | None = None  # the event the shortcut counts, once one has been kept
        counts: dict[tuple[str, int], int] = {}
        stacks: dict[int, Stack] = {}
        accumulator: _Accumulator | None = None
        kept = 0  # samples counted by the shortcut, not yet added to the accumulator's count
        for sample in samples:
            stack = sample.stack
            if sample.event is not event or not stack:
                if accumulator is not None:
                    accumulator.samples += kept
                    kept = 0
                add(sample)
                found = self._accumulators.get(sample.event)
                if found is not None and (self._by_event or sample.event == self._wanted):
                    event, accumulator = sample.event, found
                    counts, stacks = found.counts, found.stacks
                continue
            kept += 1
            root_key = (sample.comm, None, None) if by_comm else (sample.comm, sample.pid, sample.tid)
            root = roots.get(root_key)
            if root is None:
                root = roots[root_key] = root_of(sample.comm, sample.pid, sample.tid)
            key = (root, id(stack))
            period = sample.period
            found_weight = counts.get(key)
            if found_weight is None:
                counts[key] = 1 if period is None else period
                stacks[id(stack)] = stack  # keeps the object, hence its id, alive
            else:
                counts[key] = found_weight + (1 if period is None else period)
        if accumulator is not None:
            accumulator.samples += kept

    def result(self) -> FoldResult:
        """The kept event's folded stacks (single-event folding)."""
        event = self._wanted
        accumulator = self._accumulators.get(event) if event is not None else None
        result = self._render(event, accumulator)
        result.skipped_events = dict(self._skipped)
        result.first_skipped_lines = dict(self._first_skipped)
        return result

    def results(self) -> dict[str, FoldResult]:
        """Every event's folded stacks, kept apart (by-event folding)."""
        return {event: self._render(event, acc) for event, acc in sorted(self._accumulators.items())}

    def _root(self, comm: str, pid: int | None, tid: int | None) -> str:
        name = comm.replace(" ", "_")
        pid_text = "?" if pid is None else str(pid)
        if self.options.tid:
            return f"{name}-{pid_text}/{'?' if tid is None else tid}"
        if self.options.pid:
            return f"{name}-{pid_text}"
        return name

    def _render(self, event: str | None, accumulator: _Accumulator | None) -> FoldResult:
        result = FoldResult(event)
        if accumulator is None:
            return result
        result.samples = accumulator.samples
        result.empty_stacks = accumulator.empty
        result.first_empty_line = accumulator.first_empty
        line_of = _Labeller(self.options).line
        stacks = accumulator.stacks
        counts = result.counts
        for (root, stack_id), weight in accumulator.counts.items():
            line = line_of(root, stacks[stack_id])
            # Different stacks can print the same (e.g. a frame's kind differs but is not annotated).
            counts[line] = counts.get(line, 0) + weight
        return result


class _Labeller:
    """A frame's folded text: its name plus the annotation the options ask for."""

    def __init__(self, options: FoldOptions) -> None:
        self._kernel = options.kernel or options.all
        self._jit = options.jit or options.all
        self._labels: dict[int, str] = {}  # by id(frame): hashing frames themselves is slow

    def line(self, root: str, stack: Stack) -> str:
        """`root;frame;frame…` with each frame's folded text: one join, the line's one copy."""
        if not stack:
            return f"{root};{NO_STACK_FRAME}"
        labels = self._labels
        try:
            return ";".join([root, *map(labels.__getitem__, map(id, stack))])
        except KeyError:
            for frame in stack:
                if id(frame) not in labels:
                    labels[id(frame)] = self._label(frame)
            return ";".join([root, *map(labels.__getitem__, map(id, stack))])

    def _label(self, frame: Frame) -> str:
        name, kind = frame.name, frame.kind
        if kind is FrameKind.INLINE:
            return name if "_[i]" in name else name + "_[i]"
        if kind is FrameKind.KERNEL and self._kernel:
            return name + "_[k]"
        if kind is FrameKind.JIT and self._jit and "_[j]" not in name:
            return name + "_[j]"
        return name


def fold(samples: Iterable[Sample], options: FoldOptions | None = None) -> FoldResult:
    """Fold one event's samples the way the reference tools do (first event seen, unless chosen)."""
    folder = StackFolder(options)
    folder.add_all(samples)
    return folder.result()


def fold_by_event(samples: Iterable[Sample], options: FoldOptions | None = None) -> dict[str, FoldResult]:
    """Fold every event separately; `options.event` is ignored."""
    folder = StackFolder(options, by_event=True)
    folder.add_all(samples)
    return folder.results()


def folded_lines(counts: Mapping[str, int]) -> Iterator[bytes]:
    """`stack count\\n` lines in bytewise order (code-point order of str is UTF-8 byte order)."""
    for stack in sorted(counts):
        yield f"{stack} {counts[stack]}\n".encode()


def write_folded(counts: Mapping[str, int], out: BinaryIO) -> None:
    """`folded_lines`, written a batch at a time: one join and one encoding per batch, as a deep
    capture's folded stacks run to a hundred megabytes and more."""
    stacks = sorted(counts)
    for start in range(0, len(stacks), _WRITE_BATCH_LINES):
        parts: list[str] = []
        for stack in stacks[start : start + _WRITE_BATCH_LINES]:
            parts += (stack, f" {counts[stack]}\n")
        out.write("".join(parts).encode())


def report_omissions(result: FoldResult, options: FoldOptions, report: ParseReport) -> None:
    """Explain, as warnings, the samples a fold left out."""
    for event, skipped in sorted(result.skipped_events.items()):
        report.warn(
            result.first_skipped_lines.get(event, 0),
            f"kept event {result.event!r} only; skipped {skipped} sample(s) of event {event!r}",
        )
    if result.empty_stacks and not options.keep_empty_stacks:
        report.warn(
            result.first_empty_line,
            f"left out {result.empty_stacks} sample(s) with an empty call chain",
        )
