"""Every importer's `detect` against every other format's head: each claims its own and nothing else."""

from __future__ import annotations

import gzip
from collections.abc import Callable
from pathlib import Path

import pytest

from stallscope.ingest import collapsed, dtrace, ftrace, perf_script, perf_trace, proc_stacks, sched, stap

DATA = Path(__file__).parent / "data"

DETECTORS: dict[str, Callable[[bytes], bool]] = {
    "perf-script": perf_script.detect,
    "perf-sched": sched.detect,
    "perf-trace": perf_trace.detect,
    "perf-trace-T": perf_trace.detect_absolute,
    "stap-faults": stap.detect,
    "ftrace": ftrace.detect,
    "collapsed": collapsed.detect,
    "dtrace": dtrace.detect,
    "proc-stacks": proc_stacks.detect,
}

PERF_SCRIPT = (
    b"deeprec 17063 [000]   320.927016:    1001001 cpu-clock:pppH: \n"
    b"\t            1172 leaf_hash+0x19 (/opt/workload/deeprec)\n"
    b"\t            11ba main+0x11 (/opt/workload/deeprec)\n\n"
)
SCHED = (
    b"mutex16 20441 [001]   448.621961:       sched:sched_switch: prev_comm=mutex16 prev_pid=20441 "
    b"prev_prio=120 prev_state=S ==> next_comm=mutex16 next_pid=20436 next_prio=120\n"
    b"\tffffffff821facd8 __schedule+0x618 ([kernel.kallsyms])\n\n"
)
SCHED_F = (
    b"perf 20697/20697 [000]   448.621373:          1       sched:sched_switch: \n"
    b"\tffffffff821facd8 __schedule ([kernel.kallsyms])\n\n"
)
HEADS: dict[str, bytes] = {
    "perf script": PERF_SCRIPT,
    "perf script, sched": SCHED,
    "perf script -F, sched": SCHED_F,
    "perf trace": (DATA / "perf_trace" / "callgraph.txt").read_bytes(),
    "perf trace -T": (DATA / "perf_trace" / "absolute_T.txt").read_bytes(),
    "stap faults": (DATA / "stap" / "faults.txt").read_bytes(),
    "function_graph": (DATA / "ftrace" / "function_graph.txt").read_bytes(),
    "function_graph -abstime -proc": (DATA / "ftrace" / "function_graph_abstime_proc.txt").read_bytes(),
    "trace-cmd report": gzip.decompress((DATA / "trace_cmd" / "block_wakeup.report.txt.gz").read_bytes())[
        :65536
    ],
    "collapsed": b"java;start_thread;run 12\nbash;main;read 3\nbash 1\n",
    "dtrace ustack": (DATA / "dtrace" / "ustack_count.txt").read_bytes(),
    "dtrace keys": (DATA / "dtrace" / "execname_stack_sum.txt").read_bytes(),
    "proc stacks ts_us": (DATA / "proc_stacks" / "ts_us.txt").read_bytes(),
    "proc stacks pid state": (DATA / "proc_stacks" / "pid_state.txt").read_bytes(),
    "proc stacks iso": (DATA / "proc_stacks" / "iso.txt").read_bytes(),
    "proc stacks tail": (DATA / "proc_stacks" / "tail_date.txt").read_bytes(),
    "proc stacks head": (DATA / "proc_stacks" / "head_bare.txt").read_bytes(),
    "cat of stack files, no headers": b"[<0>] futex_do_wait+0x46/0x90\n[<0>] do_futex+0xfd/0x250\n",
    "csv metrics": b"time,cpu,usage\n2026-11-22T00:00:00Z,0,12.5\n2026-11-22T00:00:01Z,0,13 \n",
    "csv with spaces": b"host, value 12\nweb 1, 3\n",
    "difffolded": b"a;b;c 12 10\na;b 3 4\n",
    "mpstat": (
        b"Linux 6.18.44 (host) \t11/22/2026 \t_x86_64_\t(2 CPU)\n\n"
        b"12:00:01 AM  CPU    %usr   %nice    %sys %iowait    %irq   %soft  %steal  %guest  %gnice   %idle\n"
        b"12:00:02 AM  all    1.00    0.00    0.50    0.00    0.00    0.00    0.00    0.00    0.00   98.50\n"
    ),
    "json": b'{"kind": "snapshot", "hosts": [1, 2]}\n',
    "empty": b"",
    "binary": bytes(range(256)) * 4,
    "perf.data": b"PERFILE2" + bytes(200),
}
EXPECTED: dict[str, set[str]] = {
    "perf script": {"perf-script"},
    # The generic perf script importer takes scheduler captures too; the registry tries perf-sched first.
    "perf script, sched": {"perf-script", "perf-sched"},
    "perf script -F, sched": {"perf-script", "perf-sched"},
    "perf trace": {"perf-trace"},
    "perf trace -T": {"perf-trace-T"},
    "stap faults": {"stap-faults"},
    "function_graph": {"ftrace"},
    "function_graph -abstime -proc": {"ftrace"},
    "trace-cmd report": {"ftrace"},
    "collapsed": {"collapsed"},
    "dtrace ustack": {"dtrace"},
    "dtrace keys": {"dtrace"},
    "proc stacks ts_us": {"proc-stacks"},
    "proc stacks pid state": {"proc-stacks"},
    "proc stacks iso": {"proc-stacks"},
    "proc stacks tail": {"proc-stacks"},
    "proc stacks head": {"proc-stacks"},
}


@pytest.mark.parametrize("head_name", list(HEADS))
def test_each_head_is_claimed_by_its_own_importers_only(head_name: str) -> None:
    head = HEADS[head_name]
    claimed = {name for name, detect in DETECTORS.items() if detect(head)}
    assert claimed == EXPECTED.get(head_name, set())


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("cpu20s.perf.txt.gz", {"perf-script"}),
        ("offcpu5s.perf.txt.gz", {"perf-script", "perf-sched"}),
        ("offcpu5s.F.perf.txt.gz", {"perf-script", "perf-sched"}),
        ("faults5s.perf.txt.gz", {"perf-script"}),
        ("perf_trace.mmap_fsync_futex.txt.gz", {"perf-trace"}),
        ("derived/cpu20s.collapsed.inferno-default.txt.gz", {"collapsed"}),
        ("derived/cpu20s.collapsed.perl-default.txt.gz", {"collapsed"}),
    ],
)
def test_corpus_heads(corpus: Path, name: str, expected: set[str]) -> None:
    with gzip.open(corpus / "captures" / name) as stream:
        head = stream.read(64 * 1024)
    assert {detector for detector, detect in DETECTORS.items() if detect(head)} == expected
