"""Recognising `perf script` text from a file's first bytes."""

from __future__ import annotations

from pathlib import Path

import pytest

from stallscope.ingest.perf_script import detect, looks_like_perf_data
from stallscope.kit.compression import open_capture

HEADER = b"deeprec 17063 [000]   320.927016:    1001001 cpu-clock:pppH: \n"
FRAME = b"\t            1172 leaf_hash+0x19 (/opt/workload/deeprec)\n"


@pytest.mark.parametrize(
    "head",
    [
        HEADER + FRAME + b"\n",
        b"# ========\n# captured on: x\n#\n\n" + HEADER + FRAME,
        b"func_ab 15294 cpu-clock: \n" + FRAME,
        HEADER + b"\n" + HEADER,  # samples without a call chain
        b"false 1 1.5: 1 cycles:u:  ffffffff9b201293 [unknown] ([unknown])\n",
        HEADER + FRAME[:20],  # the sniffed window cuts a frame line
    ],
)
def test_detects_perf_script(head: bytes) -> None:
    assert detect(head)


@pytest.mark.parametrize(
    "head",
    [
        b"",
        b"PERFILE2" + bytes(100),
        bytes(range(256)),
        b"time,cpu,usage\n1,2,3\n",
        b"     0.000 ( 0.046 ms): trace_workload/21509 mmap(len: 8192) = 0x7fee8b713000\n",
        b"func_ab 15294 cpu-clock: \nnot a frame\n",  # no timestamp and nothing perf-like after it
    ],
)
def test_rejects_other_input(head: bytes) -> None:
    assert not detect(head)


def test_perf_data_magic() -> None:
    assert looks_like_perf_data(b"PERFILE2\x68\x00")
    assert not looks_like_perf_data(HEADER)


def test_a_one_sample_file_without_its_last_newline() -> None:
    assert detect(b"app 7 [000] 1.000001: 1 cpu-clock:\n\t7f12 main (/bin/app)")
    assert detect(b"app 7 [000] 1.000001: 1 cpu-clock:")


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("cpu20s.perf.txt.gz", True),
        ("cpu20s.F.perf.txt.gz", True),
        ("offcpu5s.perf.txt.gz", True),
        ("faults5s.perf.txt.gz", True),
        ("clockmono/cpu5s_clockmono.tod.perf.txt.gz", True),
        ("perf_trace.mmap_fsync_futex.txt.gz", False),
    ],
)
def test_corpus_captures(corpus: Path, name: str, expected: bool) -> None:
    with open_capture(corpus / "captures" / name) as stream:
        assert detect(stream.read(64 * 1024)) is expected
