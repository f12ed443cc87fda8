"""Replay every input that once broke an importer: each must now give records or a clean report.

`crashers/<importer>/<what it caught>.<ext>` holds the small inputs the fuzz tests (or a reading of
the importers they pointed at) found: a number longer than `int()` reads, JSON nested past the
decoder's recursion limit, a pid past its 32-bit column, a time past the year 9999. Each is fed to
the importer its folder names (a format can be forced at upload, so the importer must cope even
with what it would not detect), to every importer's `detect`, and through the registry.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from stallscope.ingest.model import ParseError
from stallscope.ingest.registry import HEAD_BYTES, detect_importer, importer_by_name, importers
from tests.fuzz.checks import check_detect, check_error, check_outcome, parse_all

CRASHERS = Path(__file__).parent / "crashers"
CASES = sorted(
    path for importer in importers() for path in (CRASHERS / importer.name).glob("*") if path.is_file()
)
"""Folders named after no importer hold other layers' crashers (the compression layer's)."""


@pytest.mark.parametrize("path", CASES, ids=[f"{p.parent.name}/{p.name}" for p in CASES])
def test_a_crasher_gives_records_or_a_parse_error(path: Path) -> None:
    data = path.read_bytes()
    importer = importer_by_name(path.parent.name)
    check_outcome(importer, data, parse_all(importer, data))
    head = data[:HEAD_BYTES]
    for each in importers():
        check_detect(each, head)
    try:
        detected = detect_importer(head)
    except ParseError as exc:
        check_error(exc, head)
    else:
        check_outcome(detected, data, parse_all(detected, data))


SAMPLE = b"\t ffffffff821facd8 __schedule+0x618 ([kernel.kallsyms])\n\n"
SWITCH = b"sched:sched_switch: prev_comm=a prev_pid=1 prev_prio=1 prev_state=S ==> next_comm=b next_pid=2 "
LONG_LINES = {
    # A function_graph line of `comm-pid => comm-pid` that ends in no task: every `=>` was tried
    # against the rest of the line (300 KB took half a minute; these 4 MB, hours).
    "ftrace/context-switches": (
        b"# tracer: function_graph\n#\n 0)   0.313 us    |  futex_q_lock();\n"
        + b" 0)    fsync-3810    =>  jbd2/vda1-8-231 " * (100 << 10)
        + b"=>\n"
    ),
    # An event line of blanks: each split of the blanks between `\s*` and the comm was tried
    # (4,000 blanks took 0.1 s; this megabyte, hours).
    "ftrace/blanks": (
        b"cpus=2\n       app-15028 [000]  3788.788103: sched_wakeup: migration/0:18 [0] CPU:000\n"
        + b" " * (1 << 20)
        + b"x-1 \n"
    ),
    # Switch arguments repeated for megabytes with no `next_prio`: each `prev_pid=` was tried
    # against each `next_pid=` after it (300 KB took seconds; these 6 MB, half an hour).
    "perf-sched/switch-arguments": (
        b"cc1 5 [000] 448.621373: "
        + SWITCH
        + b"next_prio=120\n"
        + SAMPLE
        + b"cc1 5 [000] 448.631373: "
        + SWITCH * (60 << 10)
        + b"\n"
        + SAMPLE
    ),
    # A line of blanks where a header could be: three patterns could each take the blanks
    # (1,000 took four seconds; 64 KB never finished).
    "perf-script/blanks": (
        b"app 1234/1234 [000] 100.000000: 1001001 cpu-clock:\n" + SAMPLE + b"\t" * (64 << 10) + b"n])\n"
    ),
}
"""Lines that once took a time growing with the square (or cube) of their length before an importer
gave up on them: each here would take hours, which the suite's per-test timeout cuts short."""


@pytest.mark.parametrize("case", sorted(LONG_LINES))
def test_a_long_line_that_is_no_record_is_given_up_at_once(case: str) -> None:
    importer, data = importer_by_name(case.split("/")[0]), LONG_LINES[case]
    outcome = parse_all(importer, data)
    check_outcome(importer, data, outcome)
    assert outcome.error is None
    assert outcome.records
    assert outcome.report.warnings
