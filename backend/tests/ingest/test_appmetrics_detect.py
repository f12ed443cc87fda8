"""Cross-detection: each metrics importer accepts its own heads and no other format's.

The registry tries importers in order and the first `detect` that accepts wins, so a sniffer that
also accepts another format's head would steal its files. The table pairs every importer with a head
of every format, including `perf script` text and the collector's snapshot, which are tried too.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from stallscope.ingest import perf_script, snapshot
from stallscope.ingest.appmetrics import IMPORTERS, csv_metrics, proc_sampler, prometheus
from stallscope.ingest.registry import Importer
from stallscope.ingest.sysstat import IMPORTER as SYSSTAT

SYSSTAT_DATA = Path(__file__).parent / "data" / "sysstat"


def _sysstat(name: str) -> bytes:
    return (SYSSTAT_DATA / name).read_bytes()[: 64 * 1024]


PROMETHEUS = {
    "status": "success",
    "data": {
        "resultType": "matrix",
        "result": [{"metric": {"__name__": "up"}, "values": [[1700000000, "1"]]}],
    },
}
HEADS: dict[str, list[bytes]] = {
    "sysstat": [
        _sysstat("mpstat_P_ALL.txt"),
        _sysstat("mpstat_P_ALL_12h.txt"),
        _sysstat("iostat_x_t_iso.txt"),
        _sysstat("iostat_x_no_times.txt"),  # detected, so the parser can say `-t` is missing
        _sysstat("vmstat_t_wide.txt"),
        _sysstat("vmstat_no_times.txt"),
        _sysstat("sar_A.txt"),
        _sysstat("sar_u_r_B_iso.txt"),
    ],
    "stallscope-proc": [
        b'{"stallscope": "proc-sampler", "version": 1, "host": "db1", "interval_ms": 50, "target_pids": []}\n'
        b'{"t": 1795307311000000000, "name": "cpu.user", "labels": {"cpu": "0"}, "value": 1}\n',
    ],
    "prometheus-range": [json.dumps(PROMETHEUS).encode(), json.dumps(PROMETHEUS, indent=2).encode()],
    "metrics-jsonl": [
        b'{"ts": 1700000000123, "name": "latency_ms", "value": 3.5, "labels": {"host": "db1"}}\n',
        b'{"time": "2023-11-14T22:13:20Z", "latency_ms": 3.1, "naks": 2}\n{"time": "2023-11-14T22:13:21Z"',
    ],
    "metrics-csv": [
        b"ts,name,value,host\n1700000000,latency_ms,3.5,db1\n",
        b"Timestamp;cpu;latency_ms\n2023-11-14T22:13:20;1,5;3\n",
        b"when,latency_ms\n1,2\n",  # no time column: accepted so the parser can name what is missing
    ],
    "perf-script": [
        b"deeprec 17063 [000]   320.927016:    1001001 cpu-clock:pppH: \n"
        b"\t            1172 leaf_hash+0x19 (/opt/workload/deeprec)\n\n",
    ],
    "snapshot": [b'{"stallscope": "snapshot", "version": 1, "host": {"hostname": "db1"}}\n'],
}
OURS: list[Importer] = [SYSSTAT, *IMPORTERS]
OTHERS = {"perf-script": perf_script.detect, "snapshot": snapshot.detect}


@pytest.mark.parametrize("importer", OURS, ids=lambda i: i.name)
@pytest.mark.parametrize("kind", sorted(HEADS))
def test_each_importer_accepts_only_its_own_heads(importer: Importer, kind: str) -> None:
    for head in HEADS[kind]:
        assert importer.detect(head) is (kind == importer.name), head[:80]


@pytest.mark.parametrize("other", sorted(OTHERS))
@pytest.mark.parametrize("kind", sorted(set(HEADS) - set(OTHERS)))
def test_earlier_importers_leave_metric_files_alone(other: str, kind: str) -> None:
    for head in HEADS[kind]:
        assert not OTHERS[other](head), head[:80]


@pytest.mark.parametrize("head", [b"", b"\n\n", bytes(range(256)), b"PERFILE2" + bytes(64), b"[1, 2, 3]\n"])
def test_nothing_takes_empty_binary_or_stray_json(head: bytes) -> None:
    assert not any(importer.detect(head) for importer in OURS)


def test_the_sampler_comes_before_generic_json_lines_and_csv_last() -> None:
    names = [importer.name for importer in IMPORTERS]
    assert names == ["stallscope-proc", "prometheus-range", "metrics-jsonl", "metrics-csv"]
    assert proc_sampler.IMPORTER is IMPORTERS[0]
    assert prometheus.IMPORTER is IMPORTERS[1]
    assert csv_metrics.IMPORTER is IMPORTERS[-1]
