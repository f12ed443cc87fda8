"""Fuzz every registered importer: any bytes give records and a report, or a ParseError, and nothing else.

Importers are enumerated from the registry, so a new one is fuzzed without touching this module.
Each is fed its own seeds (the starts of real captures, see `seeds`) mutated, token soup made of
their words, and random bytes, and each example must finish within a deadline generous enough for
a busy machine. Without the shared corpus, an importer whose only seeds are corpus captures is fed
every other seed instead.

CI runs a fixed, derandomized budget (`CI_EXAMPLES` per importer and property), so the same inputs
are tried every run and CI cannot go red at random. `STALLSCOPE_FUZZ_EXAMPLES=N` runs N examples
per property with fresh randomness, for a long exploring run; a failure prints the
`@reproduce_failure` blob that replays it. A failing input found either way is kept, small and
named after what it caught, under `crashers/<importer>/` and replayed by `test_crashers.py`.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from stallscope.ingest.model import ParseError
from stallscope.ingest.registry import HEAD_BYTES, Importer, detect_importer, importers
from tests.fixtures.corpus import corpus_missing
from tests.fuzz.budget import fuzz_settings
from tests.fuzz.checks import check_detect, check_error, check_outcome, parse_all
from tests.fuzz.seeds import all_seeds, corpus_seeds, importer_of, seeds_by_importer, seeds_for
from tests.fuzz.strategies import importer_input

CI_EXAMPLES = 800

FUZZ = fuzz_settings(CI_EXAMPLES, deadline_s=10)
"""A deadline far above the slowest input's parse (300 KiB lines) on a loaded machine: what it
catches is a parse that grows quadratically or hangs, not a slow second."""

READ_SIZES = st.sampled_from((None, 61, 4093))
"""How much one read of the stream hands over: all it is asked for, or small pieces."""

IMPORTERS = {importer.name: importer for importer in importers()}


def _read_size(chunk: int | None, data: bytes) -> int | None:
    """`chunk`, raised so that a long input still takes at most 64 reads."""
    return None if chunk is None else max(chunk, len(data) // 64)


@pytest.mark.parametrize("name", sorted(IMPORTERS))
def test_an_importer_gives_records_or_a_parse_error(name: str) -> None:
    importer = IMPORTERS[name]

    @FUZZ
    @given(data=importer_input(seeds_for(name)), chunk=READ_SIZES)
    def survives(data: bytes, chunk: int | None) -> None:
        check_detect(importer, data[:HEAD_BYTES])
        check_outcome(importer, data, parse_all(importer, data, _read_size(chunk, data)))

    survives()


@FUZZ
@given(data=importer_input(all_seeds()))
def test_the_registry_picks_an_importer_or_says_why_not(data: bytes) -> None:
    head = data[:HEAD_BYTES]
    try:
        importer: Importer = detect_importer(head)
    except ParseError as exc:
        check_error(exc, head)
        return
    check_outcome(importer, data, parse_all(importer, data))


KEEPS_GOING = frozenset(
    {
        "collapsed",
        "events-csv",
        "ftrace",
        "metrics-csv",
        "metrics-jsonl",
        "perf-sched",
        "perf-script",
        "perf-trace",
        "perf-trace-T",
        "proc-stacks",
        "stallscope-proc",
        "stap-faults",
        "sysstat",
    }
)
"""Importers that promise to drop a line they cannot read, with a warning, and read on. Not DTrace
(a stray line reads as a key of the record after it), nor the single JSON documents (snapshot,
Prometheus results)."""
DAMAGE = (b"%%% damaged line %%%", b"}{ ][ ,,, :::")
"""Lines no format reads."""


@pytest.mark.parametrize("name", sorted(KEEPS_GOING))
def test_a_bad_line_is_dropped_and_the_parse_reads_on(name: str) -> None:
    """A damaged line inserted among a clean seed's records costs that line (and at most the one after
    it, such as the only row under an iostat header), never the rest of the file."""
    importer = IMPORTERS[name]
    clean = [
        (seed.data, outcome)
        for seed in seeds_by_importer().get(name, ())
        if (outcome := parse_all(importer, seed.data)).error is None
        and len({record.line for record in outcome.records}) >= 2
    ]
    if not clean:
        pytest.skip(f"no seed of {name} parses cleanly with two records: {corpus_missing() or 'none'}")

    @FUZZ
    @given(data=st.data())
    def reads_on(data: st.DataObject) -> None:
        text, before = data.draw(st.sampled_from(clean))
        lines = [record.line for record in before.records]
        after = data.draw(st.integers(min(lines), max(lines) - 1))
        split = text.split(b"\n")
        damaged = b"\n".join([*split[:after], data.draw(st.sampled_from(DAMAGE)), *split[after:]])
        outcome = parse_all(importer, damaged)
        assert outcome.error is None
        assert outcome.report.dropped_lines > before.report.dropped_lines
        read_on = {record.line + 1 for record in before.records if record.line > after + 1}
        assert read_on <= {record.line for record in outcome.records}

    reads_on()


def test_every_corpus_seed_is_in_a_format_an_importer_takes() -> None:
    """The corpus seeds reach the parsers they are meant for (an unclaimed seed tests nothing)."""
    missing = corpus_missing()
    if missing:
        pytest.skip(missing)
    unclaimed = [seed.name for seed in corpus_seeds() if seed.data.strip() and importer_of(seed.data) is None]
    assert unclaimed == []
