"""Digests with their stacks and CPU rows packed in arrays: the same answers as lists, through JSON."""

from __future__ import annotations

import json

import numpy as np
import pytest

from stallscope.analysis.findings.cpu_table import CpuRow, CpuTable
from stallscope.analysis.findings.digest import digest_from_json
from stallscope.analysis.findings.engine import run_findings
from stallscope.analysis.findings.stack_table import StackTable, pack_array, unpack_array
from tests.analysis.findings.lab import digests

pytestmark = pytest.mark.storage_neutral


def test_a_stack_table_answers_as_its_list_of_stacks_does() -> None:
    stacks = [(0, 1, 2), (), (3, 1), (2, 2, 0, 1)]
    table = StackTable.of(stacks)
    assert table == stacks
    assert list(table) == stacks
    assert [table[i] for i in range(len(stacks))] == stacks
    assert table[-1] == stacks[-1]
    flagged = np.array([False, True, True, False])
    expected = [next((i for i, f in enumerate(s) if flagged[f]), -1) for s in stacks]
    assert table.first_hits(flagged).tolist() == expected
    assert table.first_hits(np.zeros(4, dtype=bool)).tolist() == [-1] * len(stacks)
    assert table.leaf_flagged(flagged).tolist() == [bool(s) and bool(flagged[s[-1]]) for s in stacks]
    assert table.any_unflagged(flagged).tolist() == [not all(flagged[f] for f in s) for s in stacks]
    assert StackTable.from_json(json.loads(json.dumps(table.as_json()))) == stacks

    for values in ([], [0, 255], [0, 70_000], [-1, 5], [np.iinfo(np.int64).min, np.iinfo(np.int64).max]):
        array = np.array(values, dtype=np.int64)
        assert unpack_array(pack_array(array)).tolist() == values


def test_cpu_rows_as_columns_are_the_rows() -> None:
    rows = [
        CpuRow("cpu-clock", None, 12, "cc1plus", 0, 1_001_001, 1),
        CpuRow("cpu-clock", -1, -1, ":-1", 1, 2_002_002, 2),
        CpuRow("page-faults", 7, 8, "java", 0, 3, 3),
    ]
    table = CpuTable.of(rows)
    assert table == rows
    assert list(table) == rows
    assert table[1] == rows[1]
    assert CpuTable.from_json(json.loads(json.dumps(table.as_json()))) == rows
    assert table.chosen(lambda event: event == "cpu-clock", frozenset()).tolist() == [0, 1]
    assert table.chosen(lambda event: True, frozenset({7})).tolist() == [2]


@pytest.mark.parametrize("scenario", ["lock-convoy", "hot-allocation-gc", "global-spin-lock"])
def test_findings_are_the_same_on_a_digest_read_back_from_json(scenario: str) -> None:
    bad, fixed = digests(scenario, "bad"), digests(scenario, "fixed")
    packed_bad = [digest_from_json(json.loads(json.dumps(d.as_json()))) for d in bad]
    packed_fixed = [digest_from_json(json.loads(json.dumps(d.as_json()))) for d in fixed]
    assert packed_bad == bad
    assert isinstance(packed_bad[0].stacks, StackTable)
    assert isinstance(packed_bad[0].cpu, CpuTable)
    for impacted, baseline, packed_impacted, packed_baseline in (
        (bad, [], packed_bad, []),
        (bad, fixed, packed_bad, packed_fixed),
    ):
        lists = [f.as_json() for f in run_findings(impacted, baseline, 1).findings]
        packed = [f.as_json() for f in run_findings(packed_impacted, packed_baseline, 1).findings]
        assert packed == lists
        assert lists
