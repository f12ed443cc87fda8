"""Folded output against the reference tools' expected files, byte for byte.

Each case parses a corpus input, folds it with the reference's options and compares bytes. Where we
deliberately differ from a reference, the comparison is made after a named normalisation that turns
our behaviour into the reference's (or fixes a stale expected file), and the test also checks that the
normalisation is really needed, so a documented difference can never hide an undocumented one.

The deliberate differences (see DIFFERENCES) are listed in the README.
"""

from __future__ import annotations

import enum
import functools
import gzip
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace

import pytest

from stallscope.export import FoldOptions, fold, folded_lines
from stallscope.ingest.model import Frame, ParseReport, Sample, Stack
from stallscope.ingest.perf_script import NamingOptions, parse_perf_script
from stallscope.ingest.perf_script.naming import tidy_java
from stallscope.kit.compression import open_capture
from tests.fixtures.corpus import corpus_dir, corpus_missing

CORPUS = corpus_dir()
FLAMEGRAPH = "perf-script/flamegraph"
INFERNO = "perf-script/inferno/collapse-perf"
FLAGS = {
    "pid": FoldOptions(pid=True),
    "tid": FoldOptions(tid=True),
    "kernel": FoldOptions(kernel=True),
    "jit": FoldOptions(jit=True),
    "all": FoldOptions(all=True),
    "addrs": FoldOptions(addrs=True),
}
"""The reference tools' command-line flags, as options."""
OPTIONS = tuple(FLAGS)


class Diff(enum.Enum):
    """A deliberate difference from a reference, and the normalisation that compares across it."""

    PERL_DROPS_LAST_SAMPLE = "perl-drops-last-sample"
    """stackcollapse-perf.pl only counts a sample when a blank line follows it; we keep the last one."""
    PERL_STRIPS_QUOTES = "perl-strips-quotes"
    """stackcollapse-perf.pl deletes ' and " from names; inferno (our reference) keeps them."""
    STALE_JAVA_TIDY = "stale-java-tidy"
    """Expected files made before the Java tidy-up applied to `java-PID` roots (current Perl fails them)."""
    PERL_CUTS_TEMPLATES = "perl-cuts-templates"
    """Perl cuts a name at its first `(`, even inside `<...>`; inferno only cuts top-level argument lists."""
    EXITED_TASK_INFERNO = "exited-task-inferno"
    """inferno misreads the `:-1 -1` header of an exited task and skips the sample as another event."""
    EXITED_TASK_PERL = "exited-task-perl"
    """Perl takes the period for the pid and names the exited task `:-1____-1_[000]___338.785883:`."""
    EXITED_TASK_OTHER_LAYOUT = "exited-task-other-layout"
    """The Perl reference was made from the default layout; its misreading differs for `-F` output."""
    NESTED_PAREN_MODULE = "nested-paren-module"
    """Both references cut `(/memfd:x (deleted))` at its last space and name the frame `[unknown] `."""


@dataclass(frozen=True)
class Case:
    input: str
    expected: str
    options: FoldOptions
    diffs: tuple[Diff, ...] = ()

    @property
    def id(self) -> str:
        """`flamegraph:perf-dd-stacks-01-collapsed-pid`, `cpu20s.F:inferno-default`, ..."""
        expected = self.expected.rsplit("/", 1)[-1].removesuffix(".gz").removesuffix(".txt")
        if self.input.startswith("captures/"):
            source = self.input.rsplit("/", 1)[-1].removesuffix(".perf.txt.gz")
            return f"{source}:{expected.rsplit('.', 1)[-1]}"
        return f"{self.expected.split('/')[1]}:{expected}"


def _flamegraph_cases() -> list[Case]:
    stale = {"perf-java-faults-01", "perf-java-stacks-01", "perf-java-stacks-02", "perf-vertx-stacks-01"}
    cases = []
    for path in sorted((CORPUS / FLAMEGRAPH).glob("*.txt")):
        stem = path.stem
        if "rust" in stem:
            continue  # inferno finishes Rust demangling and ships its own expected files (below)
        for option in OPTIONS:
            diffs = []
            if not path.read_bytes().endswith(b"\n\n"):
                diffs.append(Diff.PERL_DROPS_LAST_SAMPLE)
            if stem == "perf-js-stacks-01":
                diffs.append(Diff.PERL_STRIPS_QUOTES)
            if stem in stale and option in ("pid", "tid"):
                diffs.append(Diff.STALE_JAVA_TIDY)
            cases.append(
                Case(
                    f"{FLAMEGRAPH}/{path.name}",
                    f"{FLAMEGRAPH}/results/{stem}-collapsed-{option}.txt",
                    FLAGS[option],
                    tuple(diffs),
                )
            )
    return cases


def _inferno_cases() -> list[Case]:
    cases = [
        Case(f"{INFERNO}/{name}.txt", f"{INFERNO}/results/{name}-collapsed.txt", FoldOptions())
        for name in (
            "cpp-stacks-std-function",
            "go-stacks",
            "java-inline",
            "no-events",
            "single-event",
            "single-line-stacks",
        )
    ]
    cases += [
        Case(
            f"{INFERNO}/versioned-vmlinux.txt",
            f"{INFERNO}/results/versioned-vmlinux-collapsed-kernel.txt",
            FoldOptions(kernel=True),
        ),
        Case(
            f"{INFERNO}/sourcepawn-jitdump.txt",
            f"{INFERNO}/results/sourcepawn-jitdump-collapsed-jit.txt",
            FoldOptions(jit=True),
        ),
        Case(
            f"{FLAMEGRAPH}/example-perf-stacks.txt.gz",
            f"{INFERNO}/results/example-perf-stacks-collapsed.txt",
            FoldOptions(),
        ),
    ]
    cases += [
        Case(
            f"{FLAMEGRAPH}/perf-rust-Yamakaky-dcpu.txt",
            f"{INFERNO}/results/perf-rust-Yamakaky-dcpu-collapsed-{option}.txt",
            FLAGS[option],
        )
        for option in OPTIONS
    ]
    return cases


def _capture_cases() -> list[Case]:
    derived = "captures/derived/cpu20s.collapsed"
    cases = []
    for capture, exited_perl in (
        ("cpu20s", Diff.EXITED_TASK_PERL),
        ("cpu20s.F", Diff.EXITED_TASK_OTHER_LAYOUT),
    ):
        source = f"captures/{capture}.perf.txt.gz"
        inferno = (Diff.EXITED_TASK_INFERNO, Diff.NESTED_PAREN_MODULE)
        perl = (exited_perl, Diff.NESTED_PAREN_MODULE, Diff.PERL_CUTS_TEMPLATES)
        cases += [
            Case(source, f"{derived}.inferno-default.txt.gz", FoldOptions(), inferno),
            Case(source, f"{derived}.inferno-all.txt.gz", FoldOptions(all=True), inferno),
            Case(source, f"{derived}.perl-default.txt.gz", FoldOptions(), perl),
        ]
    return cases


def _params() -> list[object]:
    missing = corpus_missing()
    if missing:
        return [pytest.param(None, id="corpus-missing", marks=pytest.mark.skip(reason=missing))]
    cases = _inferno_cases() + _flamegraph_cases() + _capture_cases()
    return [pytest.param(case, id=case.id) for case in cases]


# -- parsing, cached per input: several cases share one capture ------------------------------------


@functools.lru_cache(maxsize=8)
def _samples(relative: str, addrs: bool) -> tuple[Sample, ...]:
    report = ParseReport()
    with open_capture(CORPUS / relative) as stream:
        return tuple(parse_perf_script(stream, report, NamingOptions(addrs=addrs)))


@functools.lru_cache(maxsize=4)
def _lines_of(relative: str) -> list[str]:
    with open_capture(CORPUS / relative) as stream:
        return stream.read().decode("utf-8", "replace").split("\n")


# -- the normalisations --------------------------------------------------------------------------


def _is_exited(sample: Sample) -> bool:
    return sample.comm == ":-1" and sample.tid is None


def _rename_frames(samples: Iterable[Sample], rename: Callable[[str], str]) -> list[Sample]:
    """The samples with every frame renamed; frames and stacks stay shared, as the parser's are."""
    frames: dict[int, Frame] = {}
    stacks: dict[int, Stack] = {}

    def renamed_frame(frame: Frame) -> Frame:
        found = frames.get(id(frame))
        if found is None:
            found = frames[id(frame)] = Frame(rename(frame.name), frame.kind)
        return found

    out = []
    for sample in samples:
        stack = stacks.get(id(sample.stack))
        if stack is None:
            stack = stacks[id(sample.stack)] = tuple(map(renamed_frame, sample.stack))
        out.append(replace(sample, stack=stack))
    return out


_NESTED_MODULE_FRAME = re.compile(r"\[[^\]]* \(.*\)\]")
_PERL_HEADER = re.compile(r"^(\S.+?)\s+(\d+)/*(\d+)*\s+")
_PERL_GO_METHOD = re.compile(r"\.\(.*\)\.")
_PERL_ARGS = re.compile(r"\((?!anonymous namespace\)).*")


def _perl_cut(name: str) -> str:
    return name if _PERL_GO_METHOD.search(name) else _PERL_ARGS.sub("", name)


def _ours(case: Case, diffs: Iterable[Diff]) -> dict[str, int]:
    """Our folded counts for `case`, after the normalisations for `diffs`."""
    diffs = set(diffs)
    samples: list[Sample] = list(_samples(case.input, case.options.addrs))
    if Diff.PERL_DROPS_LAST_SAMPLE in diffs:
        samples = samples[:-1]
    if Diff.EXITED_TASK_INFERNO in diffs or Diff.EXITED_TASK_OTHER_LAYOUT in diffs:
        samples = [s for s in samples if not _is_exited(s)]
    if Diff.EXITED_TASK_PERL in diffs:
        lines = _lines_of(case.input)
        samples = [
            replace(s, comm=_PERL_HEADER.match(lines[s.line - 1]).group(1))  # type: ignore[union-attr]
            if _is_exited(s)
            else s
            for s in samples
        ]
    renames: list[Callable[[str], str]] = []
    if Diff.NESTED_PAREN_MODULE in diffs:
        renames.append(lambda name: "[unknown] " if _NESTED_MODULE_FRAME.fullmatch(name) else name)
    if Diff.PERL_CUTS_TEMPLATES in diffs:
        renames.append(_perl_cut)
    if renames:

        def rename(name: str) -> str:
            for step in renames:
                name = step(name)
            return name

        samples = _rename_frames(samples, rename)
    counts = fold(samples, case.options).counts
    if Diff.PERL_STRIPS_QUOTES in diffs:
        counts = _aggregate((stack.replace("'", "").replace('"', ""), n) for stack, n in counts.items())
    return counts


def _expected(case: Case, diffs: Iterable[Diff]) -> bytes:
    raw = (CORPUS / case.expected).read_bytes()
    if case.expected.endswith(".gz"):
        raw = gzip.decompress(raw)
    diffs = set(diffs)
    if not diffs & {Diff.STALE_JAVA_TIDY, Diff.EXITED_TASK_OTHER_LAYOUT}:
        return raw
    pairs = []
    for line in raw.decode().splitlines():
        stack, _, count = line.rpartition(" ")
        frames = stack.split(";")
        if Diff.EXITED_TASK_OTHER_LAYOUT in diffs and frames[0].startswith(":-1"):
            continue
        if Diff.STALE_JAVA_TIDY in diffs and frames[0].startswith("java"):
            frames[1:] = map(tidy_java, frames[1:])
        pairs.append((";".join(frames), int(count)))
    return b"".join(folded_lines(_aggregate(pairs)))


def _aggregate(pairs: Iterable[tuple[str, int]]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for stack, count in pairs:
        counts[stack] = counts.get(stack, 0) + count
    return counts


def _first_difference(got: bytes, expected: bytes) -> str:
    got_lines, expected_lines = got.decode().splitlines(), expected.decode().splitlines()
    only_got = sorted(set(got_lines) - set(expected_lines))[:3]
    only_expected = sorted(set(expected_lines) - set(got_lines))[:3]
    counts = f"{len(got_lines)} lines vs {len(expected_lines)}"
    return f"{counts}; ours only: {only_got}; reference only: {only_expected}"


@pytest.mark.parametrize("case", _params())
def test_matches_reference(case: Case) -> None:
    got = b"".join(folded_lines(_ours(case, case.diffs)))
    expected = _expected(case, case.diffs)
    assert got == expected, _first_difference(got, expected)
    for diff in case.diffs:  # every documented difference must be real
        others = [d for d in case.diffs if d is not diff]
        unnormalised = b"".join(folded_lines(_ours(case, others)))
        assert unnormalised != _expected(case, others), f"{diff.value} is not needed for this case"


def test_case_count() -> None:
    missing = corpus_missing()
    if missing:
        pytest.skip(missing)
    assert (len(_inferno_cases()), len(_flamegraph_cases()), len(_capture_cases())) == (15, 72, 6)
