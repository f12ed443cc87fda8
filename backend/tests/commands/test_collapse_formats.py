"""`stallscope collapse` folds every stack format the importers read, and never exits 0 with nothing."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from stallscope.cli import main

DATA = Path(__file__).resolve().parents[1] / "ingest" / "data"


def collapse(capsys: pytest.CaptureFixture[str], path: Path, *args: str) -> tuple[int, str, str]:
    status = main(["collapse", str(path), *args])
    out = capsys.readouterr()
    return status, out.out, out.err


def write(tmp_path: Path, name: str, data: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


def test_tab_separated_frame_lines_fold(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(
        tmp_path,
        "tabs.txt",
        b"app 101/101 [000] 100.000001: 1001001 cpu-clock:\n"
        b"\t7f12\tleaf+0x1\t(/usr/bin/app)\n\t7f34\tmain\t(/usr/bin/app)\n\n",
    )
    assert collapse(capsys, path) == (0, "app;main;leaf 1001001\n", "")


def test_every_frame_dropped_is_an_error_with_a_reason(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(
        tmp_path,
        "garbled.txt",
        b"app 101/101 [000] 100.000001: 1001001 cpu-clock:\n\t<frame text lost in a paste>\n\n",
    )
    status, out, err = collapse(capsys, path)
    assert (status, out) == (1, "")
    assert err.splitlines()[-1] == (
        f"stallscope: {path}: nothing to fold: none of the 1 samples of 'cpu-clock' has a stack "
        "(1 lines could not be read: see the warnings above)"
    )


def test_folded_input_folds_to_itself(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = b"# folded on db-7\njava;start_thread;run 12\nbash;main;read 3"
    status, out, err = collapse(capsys, write(tmp_path, "cpu.folded", text))
    assert (status, out, err) == (0, "bash;main;read 3\njava;start_thread;run 12\n", "")


def test_dtrace_aggregations_fold_like_stackcollapse(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = collapse(capsys, DATA / "dtrace" / "ustack_count.txt")
    assert status == 0
    assert out.splitlines()[0] == (
        ";app`_start;app`main;app`report;libc.so.1`printf;libc.so.1`_ndoprnt;libc.so.1`_write 102"
    )
    assert sum(int(line.rsplit(" ", 1)[1]) for line in out.splitlines()) == 17 + 102 + 2048


def test_systemtap_faults_fold_as_counts(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = collapse(capsys, DATA / "stap" / "faults.txt")
    assert status == 0
    assert ";__libc_start_main;main;copy_block;__memcpy_ssse3_back 1" in out.splitlines()
    assert "left out 1 sample(s) with an empty call chain" in err  # the fault printed no stack


def test_function_graph_folds_every_call_path(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = collapse(capsys, DATA / "ftrace" / "function_graph.txt")
    assert status == 0
    assert ";__x64_sys_futex;do_futex;futex_wait;schedule;__schedule 1" in out.splitlines()
    assert "kept event" not in err


def test_perf_trace_call_graph_folds_the_syscall_asked_for(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = collapse(capsys, DATA / "perf_trace" / "callgraph.txt", "--event", "write")
    assert status == 0
    assert "bash;[unknown];__GI___libc_write 26" in out.splitlines()
    assert sum(int(line.rsplit(" ", 1)[1]) for line in out.splitlines()) == 30  # every write() call
    assert "kept event 'write' only" in err


def test_events_without_stacks_say_how_to_get_them(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = collapse(capsys, DATA / "perf_trace" / "tracepoints.txt")
    assert (status, out) == (1, "")
    assert "nothing to fold: none of the 2 events of 'sched:sched_process_exec' has a stack" in err
    assert "--call-graph" in err


def test_metrics_have_no_stacks(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = collapse(capsys, DATA / "sysstat" / "vmstat_t.txt")
    assert (status, out) == (1, "")
    assert "nothing to fold: a `sysstat` capture holds metrics, not stacks" in err


def test_an_event_the_file_does_not_have(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "cpu.txt", b"app 1/1 [000] 1.0: 1 cpu-clock:\n\t1 main (/bin/app)\n\n")
    status, out, err = collapse(capsys, path, "--event", "cycles")
    assert (status, out) == (1, "")
    assert err.splitlines()[-1] == (
        f"stallscope: {path}: nothing to fold: no samples of event 'cycles'; the file has cpu-clock (1)"
    )


def test_utf16_perf_script_folds(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = "app 1/1 [000] 1.0: 1 cpu-clock:\r\n\t1 main (/bin/app)\r\n\r\n".encode("utf-16")
    assert collapse(capsys, write(tmp_path, "cpu.txt", text)) == (0, "app;main 1\n", "")


def test_a_blank_file_says_it_is_empty(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "blank.txt.gz", gzip.compress(b"\n\n   \n"))
    assert collapse(capsys, path) == (1, "", f"stallscope: {path}: the file is empty\n")
