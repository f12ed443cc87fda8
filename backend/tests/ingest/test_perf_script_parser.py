"""The streaming `perf script` parser on tiny hand-written inputs, one rule per test."""

from __future__ import annotations

import gzip
import io
from pathlib import Path

import pytest

from stallscope.ingest.model import FrameKind, ParseError, ParseReport, Sample
from stallscope.ingest.perf_script import PERF_DATA_MESSAGE, NamingOptions, parse_perf_script
from stallscope.ingest.perf_script import parser as parser_module

DATA = Path(__file__).parent / "data" / "perf_script"


def parse(text: str | bytes, options: NamingOptions | None = None) -> tuple[list[Sample], ParseReport]:
    data = text.encode() if isinstance(text, str) else text
    report = ParseReport()
    return list(parse_perf_script(io.BytesIO(data), report, options)), report


def names(sample: Sample) -> list[str]:
    return [frame.name for frame in sample.stack]


DEFAULT = (
    "deeprec 17063 [000]   320.927016:    1001001 cpu-clock:pppH: \n"
    "\t            1172 leaf_hash+0x19 (/opt/workload/deeprec)\n"
    "\t            134e main+0x9b (/opt/workload/deeprec)\n"
    "\t           2724a __libc_start_call_main+0x7a (/usr/lib/x86_64-linux-gnu/libc.so.6)\n"
    "\n"
    "swapper     0 [001]   320.928001:    1001001 cpu-clock:pppH: \n"
    "\tffffffff8220342e pv_native_safe_halt+0xe ([kernel.kallsyms])\n"
    "\tffffffff81000130 [unknown] ([kernel.kallsyms])\n"
    "\n"
)


def test_default_format_header_and_frames() -> None:
    samples, report = parse(DEFAULT)
    first, second = samples
    assert (first.line, first.comm, first.pid, first.tid, first.cpu) == (1, "deeprec", None, 17063, 0)
    assert (first.time_ns, first.event, first.period) == (320_927_016_000, "cpu-clock", 1001001)
    assert names(first) == ["__libc_start_call_main", "main", "leaf_hash"]  # root first
    assert {frame.kind for frame in first.stack} == {FrameKind.USER}
    assert first.trace_args is None
    assert (second.line, second.comm, second.tid, second.cpu) == (6, "swapper", 0, 1)
    assert names(second) == ["[[kernel.kallsyms]]", "pv_native_safe_halt"]
    assert {frame.kind for frame in second.stack} == {FrameKind.KERNEL}
    assert (report.samples, report.dropped_lines, report.truncated, report.warnings) == (2, 0, False, [])


def test_pid_tid_header() -> None:
    samples, _ = parse(
        "iperf 27409/28744 [000] 441995.133575: cpu-clock: \n\t  59fef5 copy_user (/lib/vmlinux)\n\n"
    )
    assert (samples[0].pid, samples[0].tid, samples[0].period) == (27409, 28744, None)


def test_header_without_time_or_cpu() -> None:
    samples, _ = parse("func_ab 15294 cpu-clock: \n\t  400570 func_b (/root/func_ab)\n\n")
    assert (samples[0].comm, samples[0].tid, samples[0].cpu, samples[0].time_ns) == (
        "func_ab",
        15294,
        None,
        None,
    )
    assert samples[0].event == "cpu-clock"


def test_comm_with_spaces_and_padding() -> None:
    samples, _ = parse(
        "V8 WorkerThread 25607 4794564.109216: cycles: \n\t  dd777 f (/x)\n\n"
        "           false 39654 19115.489713:          1 cycles:u: \n\t  dd777 f (/x)\n\n"
    )
    assert [s.comm for s in samples] == ["V8 WorkerThread", "false"]
    assert [s.tid for s in samples] == [25607, 39654]


def test_exited_task_header() -> None:
    samples, _ = parse(
        ":-1    -1 [000]   338.785883:    1001001 cpu-clock:pppH: \n"
        "\tffffffff8135fc2e do_exit+0x62e ([kernel.kallsyms])\n\n"
    )
    assert (samples[0].comm, samples[0].pid, samples[0].tid) == (":-1", None, None)
    assert (samples[0].event, samples[0].period) == ("cpu-clock", 1001001)
    assert names(samples[0]) == ["do_exit"]


def test_tracepoint_arguments_on_the_header_line() -> None:
    samples, _ = parse(
        "cc1 20728 [000]   449.073145:       sched:sched_switch: prev_comm=cc1 prev_pid=20728 "
        "prev_prio=120 prev_state=D ==> next_comm=swapper/0 next_pid=0 next_prio=120\n"
        "\tffffffff821fe1d4 __schedule+0x3c4 ([kernel.kallsyms])\n"
        "\tffffffff821fe7b3 schedule+0x23 ([kernel.kallsyms])\n\n"
    )
    sample = samples[0]
    assert sample.event == "sched:sched_switch"
    assert sample.trace_args is not None
    assert sample.trace_args.startswith("prev_comm=cc1 ")
    assert "prev_state=D ==> next_comm=swapper/0" in sample.trace_args
    assert names(sample) == ["schedule", "__schedule"]


@pytest.mark.parametrize(
    ("printed", "event"),
    [
        ("cpu-clock:pppH", "cpu-clock"),
        ("cycles:u", "cycles"),
        ("cycles:uppp", "cycles"),
        ("cpu-clock:uhH", "cpu-clock"),
        ("instructions", "instructions"),
        ("page-faults", "page-faults"),
        ("sched:sched_switch", "sched:sched_switch"),
        ("exceptions:page_fault_user", "exceptions:page_fault_user"),
        ("probe_libc:malloc", "probe_libc:malloc"),
    ],
)
def test_event_names_are_normalised(printed: str, event: str) -> None:
    samples, _ = parse(f"a 1 [000] 1.000001:          1 {printed}: \n\t  1 f (/x)\n\n")
    assert samples[0].event == event


def test_several_events_are_kept_apart() -> None:
    samples, _ = parse(
        "noploop 21796 [001] 1410597.984841: instructions: \n\t  993 main (/root/noploop)\n\n"
        "noploop 21796 [001] 1410597.984850: cycles: \n\t  69b main (/root/noploop)\n\n"
        "perf 21797 [001]   474.025333: exceptions:page_fault_user: address=0x7fe1 ip=0x5628 error_code=0x7\n"
        "\tffffffff821f5340 exc_page_fault+0x2f0 ([kernel.kallsyms])\n\n"
    )
    assert [s.event for s in samples] == ["instructions", "cycles", "exceptions:page_fault_user"]


def test_samples_are_weighted_by_period() -> None:
    samples, _ = parse(
        "dd 29776 666709.771979:   10101010 cpu-clock: \n\t  414b3b fsnotify (/vmlinux)\n\n"
        "dd 29776 666709.782078: cpu-clock: \n\t  414b3b fsnotify (/vmlinux)\n\n"
    )
    assert [(s.period, s.weight) for s in samples] == [(10101010, 10101010), (None, 1)]


def test_module_with_nested_parentheses() -> None:
    samples, _ = parse(
        "python3 9 [000] 1.5: 1 cpu-clock: \n"
        "\t  1fe40 [unknown] (/memfd:sealed-91173221a7ea (deleted))\n"
        "\t  12f35 _PyEval_EvalFrame+0x20 (/memfd:sealed-91173221a7ea (deleted))\n\n"
    )
    assert names(samples[0]) == ["_PyEval_EvalFrame", "[memfd:sealed-91173221a7ea (deleted)]"]


def test_frame_on_the_header_line() -> None:
    samples, report = parse(
        "           false 39654 19115.489713:          1 cycles:u:  ffffffff9b201293 [unknown] ([unknown])\n"
        "           false 39654 19115.489719:          1 cycles:      "
        "7fa68b1f2d84 _dl_start+0x4 (/usr/lib/ld.so)\n"
    )
    assert [names(s) for s in samples] == [["[unknown]"], ["_dl_start"]]
    assert [s.line for s in samples] == [1, 2]
    assert samples[0].trace_args is None
    assert report.warnings == []


def test_old_format_with_unindented_frames() -> None:
    samples, _ = parse(
        "java 19983 cycles:\n"
        "ffffffff8103d0ca native_write_msr_safe ([kernel.kallsyms])\n"
        "7f722d142778 Ljava/io/PrintStream;::print (/tmp/perf-19982.map)\n\n"
    )
    assert names(samples[0]) == ["java/io/PrintStream:::print", "native_write_msr_safe"]
    assert [f.kind for f in samples[0].stack] == [FrameKind.JIT, FrameKind.KERNEL]


def test_blank_line_inside_a_stack() -> None:
    # The second sample's blank line ends it; the frame after it belongs to no sample.
    samples, report = parse(
        "inline-counter 26037  8801.193547:     250000 cpu-clock:uhH:\n"
        "\t          401b97 main+0x1f (./inline-counter)\n"
        "\n"
        "inline-counter 26037  8801.194312:     250000 cpu-clock:uhH:\n"
        "\n"
        "\t          401b94 main+0x1c (./inline-counter)\n"
    )
    assert [names(s) for s in samples] == [["main"], []]
    assert report.dropped_lines == 1
    assert [w.line for w in report.warnings] == [6]
    assert "not part of any sample" in report.warnings[0].message


def test_malformed_frame_lines_are_dropped_and_warned_once() -> None:
    record = "counter 26037 8801.19: 250000 cpu-clock:uhH:\n\t  401b97 main+0x1f (./a)\n\t  THIS_IS_WEIRD\n\n"
    samples, report = parse(record * 3)
    assert [names(s) for s in samples] == [["main"]] * 3
    assert report.dropped_lines == 3
    assert [(w.line, "THIS_IS_WEIRD" in w.message) for w in report.warnings] == [(3, True)]


def test_empty_call_chain_gives_an_empty_stack() -> None:
    samples, report = parse(
        "cc1 20728 [000]   449.073145: sched:sched_stat_runtime: comm=cc1 pid=20728 runtime=81693 [ns]\n\n"
        "cc1 20728 [000]   449.073146: sched:sched_stat_runtime: comm=cc1 pid=20728 runtime=5 [ns]\n"
    )
    assert [s.stack for s in samples] == [(), ()]
    assert samples[0].trace_args == "comm=cc1 pid=20728 runtime=81693 [ns]"
    assert report.warnings == []


def test_last_sample_without_trailing_blank_line_is_kept() -> None:
    samples, report = parse(DEFAULT.rstrip("\n") + "\n")
    assert len(samples) == 2
    assert not report.truncated


def test_file_cut_inside_a_frame_line_drops_that_sample() -> None:
    cut = DEFAULT + DEFAULT[: DEFAULT.index("134e main") + 6]  # ends mid-line, in the third sample
    samples, report = parse(cut)
    assert len(samples) == 2
    assert report.truncated
    assert report.dropped_lines == 3  # header, leaf frame, and the cut line
    assert report.warnings[0].line == 10
    assert "ends in the middle of this sample" in report.warnings[0].message


def test_file_cut_inside_a_header_line() -> None:
    samples, report = parse(DEFAULT + "deeprec 17063 [000]   320.92")
    assert len(samples) == 2
    assert report.truncated
    assert report.dropped_lines == 1
    assert report.warnings[0].line == 10


def test_compressed_stream_that_ends_early() -> None:
    packed = gzip.compress((DEFAULT * 200).encode())
    report = ParseReport()
    stream = gzip.GzipFile(fileobj=io.BytesIO(packed[: len(packed) - 20]))
    samples = list(parse_perf_script(stream, report))  # type: ignore[arg-type]
    assert 0 < len(samples) < 400
    assert report.truncated
    assert all(len(s.stack) in (2, 3) for s in samples)


def test_perf_data_file_is_refused() -> None:
    with pytest.raises(ParseError) as caught:
        parse(b"PERFILE2h\x00\x00\x00\x00\x00\x00\x00" + bytes(200))
    assert caught.value.reason == PERF_DATA_MESSAGE


def test_binary_junk_is_refused() -> None:
    with pytest.raises(ParseError, match="binary data"):
        parse(bytes(range(256)) * 40)


def test_text_that_is_not_perf_script_is_refused() -> None:
    with pytest.raises(ParseError, match="not `perf script` output") as caught:
        parse("# a comment\ntime,cpu,usage\n1,2,3\n")
    assert caught.value.line == 2


def test_input_starting_inside_a_stack() -> None:
    samples, report = parse(
        "\t  134e main+0x9b (/opt/deeprec)\n\t  2724a start+0x7a (/lib/libc.so.6)\n\n" + DEFAULT
    )
    assert [s.line for s in samples] == [4, 9]
    assert (report.dropped_lines, [w.line for w in report.warnings]) == (2, [1])


def test_header_without_event_is_not_misread() -> None:
    # `perf script -F comm,tid,time,ip,sym` has no event column: refuse it rather than take the
    # timestamp for an event name.
    with pytest.raises(ParseError, match="not `perf script` output"):
        parse("deeprec 17063   320.927016: \n\t  1172 leaf_hash+0x19 (/opt/deeprec)\n\n")


def test_empty_input_gives_an_empty_report() -> None:
    for text in ("", "\n\n", "# only\n# comments\n"):
        samples, report = parse(text)
        assert samples == []
        assert (report.samples, report.dropped_lines, report.truncated) == (0, 0, False)


def test_comment_block_before_samples() -> None:
    samples, report = parse("# ========\n# captured on    : x\n# ========\n#\n" + DEFAULT)
    assert [s.line for s in samples] == [5, 10]
    assert report.warnings == []


def test_crlf_line_endings() -> None:
    samples, report = parse(DEFAULT.replace("\n", "\r\n"))
    assert [names(s) for s in samples] == [names(s) for s in parse(DEFAULT)[0]]
    assert report.warnings == []


def test_whitespace_only_line_separates_samples() -> None:
    samples, report = parse(DEFAULT.replace("\n\n", "\n\t \n"))
    assert [s.line for s in samples] == [1, 6]
    assert report.warnings == []


def test_missing_blank_line_between_samples() -> None:
    samples, report = parse(DEFAULT.replace("libc.so.6)\n\n", "libc.so.6)\n"))
    assert [s.line for s in samples] == [1, 5]
    assert [len(s.stack) for s in samples] == [3, 2]
    assert report.warnings == []


def test_line_numbers_across_runs_of_blank_lines() -> None:
    samples, _ = parse("\n\n" + DEFAULT.replace("\n\n", "\n\n\n\n"))
    assert [s.line for s in samples] == [3, 10]


def test_identical_stacks_are_one_object() -> None:
    text = DEFAULT + DEFAULT.replace("1172 leaf_hash+0x19", "1175 leaf_hash+0x1c")
    samples, _ = parse(text)
    assert samples[0].stack == samples[2].stack
    assert samples[0].stack is samples[2].stack
    assert samples[0].stack[0] is samples[2].stack[0]


def test_java_tidy_applies_to_java_processes_only() -> None:
    frame = "\t7f722d142778 Lorg/mozilla/Foo;.call(Lorg/mozilla/C (/tmp/perf-1.map)\n\n"
    samples, _ = parse(f"java 1 1.0: cycles:\n{frame}other 2 1.1: cycles:\n{frame}")
    assert [names(s) for s in samples] == [["org/mozilla/Foo:.call"], ["Lorg/mozilla/Foo:.call"]]


def test_addrs_option_names_unresolved_frames_by_address() -> None:
    text = "a 1 1.0: cycles:\n\t  7f12 [unknown] (/lib/libc.so)\n\t  0 [unknown] ([unknown])\n\n"
    assert names(parse(text)[0][0]) == ["[unknown]", "[libc.so]"]
    assert names(parse(text, NamingOptions(addrs=True))[0][0]) == ["[unknown <0>]", "[libc.so <7f12>]"]


def test_small_chunks_give_the_same_samples(monkeypatch: pytest.MonkeyPatch) -> None:
    text = "# header\n" + DEFAULT * 3 + DEFAULT.replace("\n\n", "\n \n") + "\n\n\n" + DEFAULT
    expected = [(s.line, names(s)) for s in parse(text)[0]]
    monkeypatch.setattr(parser_module, "CHUNK_BYTES", 7)
    assert [(s.line, names(s)) for s in parse(text)[0]] == expected


def test_input_without_blank_lines_streams_in_bounded_pieces(monkeypatch: pytest.MonkeyPatch) -> None:
    line = "false 39654 19115.489713:          1 cycles:u:  ffffffff9b201293 f ([kernel.kallsyms])\n"
    monkeypatch.setattr(parser_module, "CHUNK_BYTES", 100)
    monkeypatch.setattr(parser_module, "MAX_RECORD_BYTES", 300)
    samples, report = parse(line * 50)
    assert [s.line for s in samples] == list(range(1, 51))
    assert report.warnings == []


def test_endless_line_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parser_module, "CHUNK_BYTES", 20)
    monkeypatch.setattr(parser_module, "MAX_RECORD_BYTES", 50)
    with pytest.raises(ParseError, match="a line longer than"):
        parse("a" * 200)


class _ForwardOnly(io.RawIOBase):
    """A stream that can only be read forward, counting bytes as a progress bar would."""

    def __init__(self, data: bytes) -> None:
        self._inner = io.BytesIO(data)
        self.consumed = 0

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return False

    def read(self, size: int = -1) -> bytes:
        chunk = self._inner.read(size)
        self.consumed += len(chunk)
        return chunk


def test_reads_the_stream_forward_to_the_end() -> None:
    data = (DEFAULT * 50).encode()
    stream = _ForwardOnly(data)
    report = ParseReport()
    assert len(list(parse_perf_script(stream, report))) == 100  # type: ignore[arg-type]
    assert stream.consumed == len(data)


TABBED = (
    "app 101/101 [000] 100.000001: 1001001 cpu-clock:\n"
    "\t7f12\tleaf+0x1\t(/usr/bin/app)\n"
    "\t    7f34\tmain\t(/usr/bin/app)\n"
    "\n"
)


def test_tab_separated_frame_lines() -> None:
    samples, report = parse(TABBED)
    assert [names(s) for s in samples] == [["main", "leaf"]]
    assert (report.dropped_lines, report.warnings) == (0, [])


def test_a_last_frame_line_without_its_newline_keeps_its_sample() -> None:
    samples, report = parse(DEFAULT.rstrip("\n"))
    assert [names(s) for s in samples] == [names(s) for s in parse(DEFAULT)[0]]
    assert (len(samples), report.truncated, report.warnings) == (2, False, [])


def test_a_last_header_without_its_newline_in_a_file_without_call_chains() -> None:
    text = "app 7 [000] 1.000001: 1 page-faults:  7f12 main (/bin/app)\napp 7 [000] 1.000002: 1 page-faults:"
    samples, report = parse(text)
    assert [s.time_ns for s in samples] == [1_000_001_000, 1_000_002_000]
    assert report.warnings == []


def test_lost_event_lines_are_counted_per_cpu_not_dropped() -> None:
    with gzip.open(DATA / "lost_events.txt.gz") as stream:
        report = ParseReport()
        samples = list(parse_perf_script(stream, report))
    assert (len(samples), report.dropped_lines) == (856, 0)
    assert [(w.line, w.message) for w in report.warnings] == [
        (89, "perf lost 1,273 events (CPU 1: 1,273): the trace has gaps where its buffers were full")
    ]
    lost = (
        DEFAULT
        + "perf 9 [001] 321.0: PERF_RECORD_LOST lost 7\n"
        + DEFAULT
        + "perf 9 [000] 322.0: PERF_RECORD_LOST lost 5\n"
    )
    _, report = parse(lost)
    assert report.warnings[-1].message.startswith("perf lost 12 events (CPU 0: 5, CPU 1: 7)")


@pytest.mark.parametrize("encoding", ["utf-16", "utf-8-sig"])
def test_a_byte_order_mark_and_utf16(encoding: str) -> None:
    samples, report = parse(DEFAULT.replace("\n", "\r\n").encode(encoding))
    assert [(s.comm, names(s)) for s in samples] == [(s.comm, names(s)) for s in parse(DEFAULT)[0]]
    assert report.warnings == []
