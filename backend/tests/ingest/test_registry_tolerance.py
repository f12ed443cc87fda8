"""Detection takes the files people have: UTF-16 with a BOM, a closing remark, comments, blank files,
and names every kind of perf.data with the command that turns it into text."""

from __future__ import annotations

import gzip
import io
from pathlib import Path

import pytest

from stallscope.ingest.model import ParseError, ParseReport
from stallscope.ingest.perf_data import PERF_SCRIPT_COMMAND, perf_data_kind
from stallscope.ingest.registry import EMPTY, HEAD_BYTES, detect_importer

DATA = Path(__file__).parent / "data"

PERF_SCRIPT = (
    b"deeprec 17063 [000]   320.927016:    1001001 cpu-clock:pppH: \n"
    b"\t            1172 leaf_hash+0x19 (/opt/workload/deeprec)\n"
    b"\t            11ba main+0x11 (/opt/workload/deeprec)\n\n"
)
SAMPLES: dict[str, tuple[str, bytes]] = {
    "perf script": ("perf-script", PERF_SCRIPT),
    "perf trace": ("perf-trace", (DATA / "perf_trace" / "callgraph.txt").read_bytes()),
    "perf trace events": ("perf-trace", (DATA / "perf_trace" / "tracepoints.txt").read_bytes()),
    "function_graph": ("ftrace", (DATA / "ftrace" / "function_graph.txt").read_bytes()),
    "trace_pipe": ("ftrace", (DATA / "ftrace" / "events_lost.txt").read_bytes()),
    "stap": ("stap-faults", (DATA / "stap" / "faults.txt").read_bytes()),
    "dtrace": ("dtrace", (DATA / "dtrace" / "ustack_count.txt").read_bytes()),
    "collapsed": ("collapsed", b"java;start_thread;run 12\nbash;main;read 3\n"),
}


def records(name: str, data: bytes) -> list[tuple[int, str]]:
    importer = detect_importer(data[:HEAD_BYTES])
    assert importer.name == name
    report = ParseReport()
    return [(record.line, type(record).__name__) for record in importer.parse(io.BytesIO(data), report)]


def detected(data: bytes) -> str:
    try:
        return detect_importer(data[:HEAD_BYTES]).name
    except ParseError as exc:
        return f"refused: {exc}"


def test_utf16_and_byte_order_marks_read_as_the_same_capture() -> None:
    """PowerShell's `>` writes UTF-16 with a BOM; Notepad saves UTF-8 with one."""
    for encoding in ("utf-16", "utf-8-sig"):
        for sample, (name, data) in SAMPLES.items():
            converted = data.decode().replace("\n", "\r\n").encode(encoding)
            assert detected(converted) == name, (sample, encoding)
            assert records(name, converted) == records(name, data), (sample, encoding)
            assert first_comm(name, converted) == first_comm(name, data), (sample, encoding)


def first_comm(name: str, data: bytes) -> str:
    """The first record's process name: a BOM left in would stick to it."""
    importer = detect_importer(data[:HEAD_BYTES])
    record = next(iter(importer.parse(io.BytesIO(data), ParseReport())))
    return str(getattr(record, "comm", ""))


def test_a_closing_remark_does_not_hide_a_short_file() -> None:
    """`[...]` where someone cut a paste short, a tool's `Ending tracing...`: dropped with a warning."""
    found = {sample: detected(data.rstrip(b"\n") + b"\n[...]\n") for sample, (_, data) in SAMPLES.items()}
    assert found == {sample: name for sample, (name, _) in SAMPLES.items()}


def test_a_leading_comment_line() -> None:
    note = b"# recorded on db-7 during the 02:14 stall\n"
    found = {sample: detected(note + data) for sample, (_, data) in SAMPLES.items()}
    assert found == {sample: name for sample, (name, _) in SAMPLES.items()}


def test_no_final_newline() -> None:
    found = {sample: detected(data.rstrip(b"\n")) for sample, (_, data) in SAMPLES.items()}
    assert found == {sample: name for sample, (name, _) in SAMPLES.items()}
    one_line = {sample: detected(data.split(b"\n")[0]) for sample, data in ONE_LINERS.items()}
    assert one_line == {sample: sample for sample in ONE_LINERS}


ONE_LINERS = {
    "collapsed": b"main;work 7",
    "perf-trace": b"     1.000 ( 0.010 ms): app/7 close(fd: 3) = 0",
    "stap-faults": b"1795307379633210:1795307379633244:4242:4240:34:0",
}


@pytest.mark.parametrize("head", [b"", b"\n", b"  \n\t\n\r\n", "\n".encode("utf-16"), b"\xef\xbb\xbf"])
def test_a_blank_file_is_empty_not_an_error(head: bytes) -> None:
    importer = detect_importer(head)
    assert importer is EMPTY
    assert list(importer.parse(io.BytesIO(head), ParseReport())) == []


def test_blank_for_64_kib_and_then_text_is_not_empty() -> None:
    data = b"\n" * HEAD_BYTES + b"hello\n"
    importer = detect_importer(data[:HEAD_BYTES])
    with pytest.raises(ParseError, match="blank, then text follows"):
        list(importer.parse(io.BytesIO(data), ParseReport()))


PERF_DATA_HEADS = {
    # What `perf record` wrote on this project's machines (perf 6.1): the magic, then the header size.
    "file": b"PERFILE2" + (104).to_bytes(8, "little") + bytes(48),
    "pipe": b"PERFILE2" + (16).to_bytes(8, "little") + bytes(48),
    # The same header from a big-endian host, and the layout of perf before 2.6.37 (util/header.c).
    "big-endian": b"2ELIFREP" + (104).to_bytes(8, "big") + bytes(48),
    "version 1": b"PERFFILE" + (72).to_bytes(8, "little") + bytes(48),
}


@pytest.mark.parametrize("kind", sorted(PERF_DATA_HEADS))
def test_every_perf_data_magic_gets_the_perf_script_command(kind: str) -> None:
    head = PERF_DATA_HEADS[kind]
    assert perf_data_kind(head) == kind
    with pytest.raises(ParseError) as raised:
        detect_importer(head)
    assert f"run `{PERF_SCRIPT_COMMAND}`" in raised.value.reason
    assert "perf.data" in raised.value.reason
    if kind != "file":
        assert kind.split()[0] in raised.value.reason  # pipe mode, big-endian host, version 1


def test_a_compressed_perf_data_is_named_too() -> None:
    head = gzip.decompress(gzip.compress(PERF_DATA_HEADS["big-endian"]))
    with pytest.raises(ParseError, match="big-endian"):
        detect_importer(head)


def test_text_no_importer_takes_is_still_refused_by_its_first_line() -> None:
    with pytest.raises(ParseError, match="the file starts with 'Dear on-call,'"):
        detect_importer(b"\n\nDear on-call,\nthe db is slow.\n[...]\n")


@pytest.mark.parametrize("sample", ["function_graph", "trace_pipe"])
def test_a_short_ftrace_file_ending_in_lost_events(sample: str) -> None:
    """The tracer's own last word: counted for its CPU, not taken for damage or another format."""
    name, data = SAMPLES[sample]
    data = data.rstrip(b"\n") + b"\nCPU:1 [LOST 12 EVENTS]\n"
    importer = detect_importer(data[:HEAD_BYTES])
    assert importer.name == name
    report = ParseReport()
    assert list(importer.parse(io.BytesIO(data), report))
    assert report.dropped_lines == 0
    assert any("CPU 1: " in warning.message for warning in report.warnings if " lost " in warning.message)
