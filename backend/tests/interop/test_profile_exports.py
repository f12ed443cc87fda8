"""pprof and speedscope exports of a real capture's flame graph, read back by their consumers."""

from __future__ import annotations

import json
import subprocess
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.fixtures.corpus import corpus_file
from tests.fixtures.factories import make_incident, upload_file
from tests.fixtures.worker import wait_parsed
from tests.interop import go_pprof

pytestmark = pytest.mark.storage_neutral  # the exports read the tree the flame graph reads


@pytest.fixture(scope="module")
def capture_id(api: TestClient, worker: subprocess.Popen[bytes]) -> int:
    """FlameGraph's example: java (JIT frames), wrk and kernel stacks, a few thousand samples."""
    path = corpus_file("perf-script", "flamegraph", "example-perf-stacks.txt.gz")
    capture = upload_file(api, make_incident(api)["id"], path)
    parsed = wait_parsed(api, capture["id"])
    assert parsed["status"] == "ready", parsed
    return int(capture["id"])


def _get(api: TestClient, url: str, **params: str) -> Any:
    response = api.get(url, params=params)
    assert response.status_code == 200, response.text
    return response


def _self_weights(folded: str) -> Counter[str]:
    """Each leaf function's own weight in folded text (what `pprof -top` calls flat)."""
    weights: Counter[str] = Counter()
    for line in folded.splitlines():
        stack, _, count = line.rpartition(" ")
        weights[stack.split(";")[-1]] += int(count)
    return weights


def test_go_pprof_reads_the_view_with_its_total_and_top_functions(
    api: TestClient, capture_id: int, tmp_path: Path
) -> None:
    ids = str(capture_id)
    view = _get(api, "/api/flame", captures=ids).json()
    response = _get(api, "/api/flame/export", captures=ids, format="pprof")
    assert response.headers["content-disposition"] == f'attachment; filename="stallscope-{ids}.pb.gz"'
    profile = tmp_path / "view.pb.gz"
    profile.write_bytes(response.content)

    total, flats = go_pprof.top(profile, "-nodefraction=0")
    assert view["unit"] == "samples"
    assert total == view["total"] > 1000
    expected = _self_weights(_get(api, "/api/flame/folded", captures=ids).text)
    top_ten = [name for name, _ in expected.most_common(10)]
    assert {name: flats.get(name) for name in top_ten} == {name: expected[name] for name in top_ten}
    raw = go_pprof.pprof(profile, "-raw")
    assert "[kernel.kallsyms]" in raw  # kernel frames keep their place as a mapping
    assert "[jit]" in raw

    busiest = max(view["root"]["children"], key=lambda c: c["value"])
    focus = json.dumps([busiest["name"]])
    focused = _get(api, "/api/flame/export", captures=ids, format="pprof", focus=focus)
    (tmp_path / "focused.pb.gz").write_bytes(focused.content)
    focused_total, _ = go_pprof.top(tmp_path / "focused.pb.gz", "-nodefraction=0")
    assert focused_total == busiest["value"] < total


def test_off_cpu_views_export_blocked_time_in_nanoseconds(
    api: TestClient, worker: subprocess.Popen[bytes], tmp_path: Path
) -> None:
    path = Path(__file__).parent / "data" / "sched-cpu-dd.perf.txt.gz"
    capture = upload_file(api, make_incident(api)["id"], path)
    assert wait_parsed(api, capture["id"])["status"] == "ready"
    ids = str(capture["id"])
    view = _get(api, "/api/flame", captures=ids, source="off-cpu").json()
    assert view["unit"] == "us"
    exported = _get(api, "/api/flame/export", captures=ids, source="off-cpu", format="pprof")
    (tmp_path / "off.pb.gz").write_bytes(exported.content)
    total, _ = go_pprof.top(tmp_path / "off.pb.gz", "-unit=ns", "-nodefraction=0")
    assert total == view["total"] * 1000 > 0
    assert "intervals/count off-cpu/nanoseconds[dflt]" in go_pprof.pprof(tmp_path / "off.pb.gz", "-raw")


def test_speedscope_export_holds_the_views_stacks_and_weights(api: TestClient, capture_id: int) -> None:
    ids = str(capture_id)
    response = _get(api, "/api/flame/export", captures=ids, format="speedscope")
    expected_name = f'attachment; filename="stallscope-{ids}.speedscope.json"'
    assert response.headers["content-disposition"] == expected_name
    document = response.json()
    assert document["$schema"] == "https://www.speedscope.app/file-format-schema.json"
    (profile,) = document["profiles"]
    frames = document["shared"]["frames"]
    assert profile["type"] == "sampled"
    assert profile["unit"] == "none"
    assert len(profile["samples"]) == len(profile["weights"])
    stacks: Counter[str] = Counter()
    for sample, weight in zip(profile["samples"], profile["weights"], strict=True):
        stacks[";".join(frames[i]["name"] for i in sample)] += weight
    lines = _get(api, "/api/flame/folded", captures=ids).text.splitlines()
    assert stacks == Counter({s: int(n) for s, _, n in (line.rpartition(" ") for line in lines)})
    total = _get(api, "/api/flame", captures=ids).json()["total"]
    assert profile["endValue"] == sum(profile["weights"]) == total
    assert {"name": "native_write_msr_safe", "file": "[kernel.kallsyms]"} in frames
