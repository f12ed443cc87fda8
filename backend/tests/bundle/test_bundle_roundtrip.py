"""An incident's bundle, exported with the default redaction and imported into a console again, both
with the command line (`stallscope export`, `stallscope import`) against a console served over HTTP.

Secrets are planted in every kind of capture of a real incident (the fsync lab's CPU and off-CPU
profiles, syscall trace, /proc sampler and system snapshot): a host name and its FQDN, a user and
home directory, an IPv4 and a MAC address, an environment value, a container id. None may be left in
any member of the bundle, nor in any compressed file inside it, while kernel and library symbols
stay. Every member matches the SHA-256 the manifest gives, and the bundle imported as a new incident
shows the same flame-graph totals.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import shutil
import subprocess
import sys
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from tests.fixtures.factories import make_incident, upload_file
from tests.fixtures.worker import wait_parsed
from tests.interop.go_pprof import top

LAB = Path(__file__).resolve().parents[3] / "lab" / "fsync-behind-writeback" / "captures" / "bad"
HOST = "db-secret-prod7"
FQDN = f"{HOST}.corp.example.com"
USER = "alice-sre"
IP = "10.213.44.19"
MAC = "02:42:ac:11:00:07"
TOKEN = "hunter2secretvalue"
CONTAINER = "3f4e9a1c2b7d" + "8e" * 26
SECRETS = (HOST, "corp.example.com", USER, IP, MAC, TOKEN, CONTAINER[:12])
KEPT_SYMBOLS = ("generic_perform_write", "__libc_pwrite")


def _planted(folder: Path) -> list[Path]:
    """The lab's captures with the secrets written into them."""
    snapshot = json.loads((LAB / "snapshot.json").read_text())
    snapshot["host"] = HOST
    kernel = snapshot["sections"]["kernel"]
    kernel["uname"] = kernel["uname"].replace("Linux vm ", f"Linux {FQDN} ")
    snapshot["sections"]["environment"] = {"API_TOKEN": TOKEN, "HOME": f"/home/{USER}", "USER": USER}
    snapshot["sections"]["network"] = {"ip_addr": f"2: eth0 inet {IP}/24 link/ether {MAC}"}
    snapshot["sections"]["cgroup"] = {"self": f"0::/system.slice/docker-{CONTAINER}.scope"}
    (folder / "snapshot.json").write_text(json.dumps(snapshot))
    home = f"/home/{USER}/lib/"
    _rewrite(folder, "cpu.perf.txt.gz", lambda text: text.replace("/usr/lib/x86_64-linux-gnu/", home))
    _rewrite(folder, "offcpu.perf.txt.gz", lambda text: text.replace("/usr/lib/x86_64-linux-gnu/", home))
    _rewrite(
        folder, "syscalls.trace.txt.gz", lambda text: text.replace("(fd: 3)", f"(fd: 3</home/{USER}/wal>)")
    )
    nic = json.dumps({"t": 1795638816878943307, "name": "net.rx_bytes", "labels": {"addr": IP}, "value": 1})
    _rewrite(
        folder, "proc.jsonl.gz", lambda text: text.replace('"host": "vm"', f'"host": "{HOST}"') + nic + "\n"
    )
    shutil.copy(LAB / "clock.json", folder / "clock.json")
    names = ("clock.json", "snapshot.json", "cpu.perf.txt.gz", "offcpu.perf.txt.gz", "syscalls.trace.txt.gz")
    return [folder / n for n in (*names, "proc.jsonl.gz")]


def _rewrite(folder: Path, name: str, change: Callable[[str], str]) -> None:
    text = gzip.decompress((LAB / name).read_bytes()).decode()
    planted = change(text)
    assert planted != text, f"nothing planted in {name}"
    (folder / name).write_bytes(gzip.compress(planted.encode()))


def _texts(bundle: zipfile.ZipFile) -> dict[str, bytes]:
    """Every member, and the decompressed contents of every gzip file inside."""
    out = {}
    for name in bundle.namelist():
        data = bundle.read(name)
        out[name] = gzip.decompress(data) if name.endswith(".gz") else data
    return out


def _flame_total(api: TestClient, capture_id: int) -> tuple[int, int]:
    flame: dict[str, Any] = api.get("/api/flame", params={"captures": str(capture_id)}).json()
    return flame["total"], flame["total_samples"]


def _stallscope(console_url: str, token: str, *args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "stallscope", *args, "--server", console_url, "--quiet"]
    env = dict(os.environ, STALLSCOPE_TOKEN=token)
    done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr
    return done


def test_a_redacted_bundle_leaks_nothing_and_imports_with_the_same_numbers(
    api: TestClient, worker: None, console_url: str, admin_token: str, tmp_path: Path
) -> None:
    incident = make_incident(api, title=f"fsync stalls on {HOST}")
    planted = tmp_path / "planted"
    planted.mkdir()
    uploaded = [upload_file(api, incident["id"], path, host=HOST) for path in _planted(planted)]
    captures = {c["filename"]: wait_parsed(api, c["id"]) for c in uploaded}
    assert all(c["status"] in {"ready", "partial"} for c in captures.values()), captures

    out = tmp_path / "incident.zip"
    _stallscope(console_url, admin_token, "export", str(incident["id"]), "--out", str(out), "--raw")
    bundle = zipfile.ZipFile(out)
    members = _texts(bundle)

    for name, data in members.items():
        lowered = data.lower()
        for secret in SECRETS:
            assert secret.lower().encode() not in lowered, f"{secret!r} left in {name}"
    everything = b"".join(members.values())
    for symbol in KEPT_SYMBOLS:
        assert symbol.encode() in everything, f"{symbol} was redacted"
    assert any(name.startswith("raw/") for name in members), "the raw captures were asked for"

    manifest = json.loads(bundle.read("manifest.json"))
    listed = {f["path"]: f["sha256"] for f in manifest["files"]}
    assert set(listed) == set(bundle.namelist()) - {"manifest.json"}
    for path, digest in listed.items():
        assert hashlib.sha256(bundle.read(path)).hexdigest() == digest, path
    assert {c["host"] for c in manifest["captures"]} == {"host-1"}
    assert manifest["redaction"]["replacements"] > 0

    # The CPU flame graph's pprof, its strings redacted, still reads back with the view's total.
    (cpu_view,) = [n for n, v in enumerate(manifest["views"], start=1) if v["title"].startswith("CPU flame")]
    profile = tmp_path / "cpu.pb.gz"
    profile.write_bytes(bundle.read(f"views/{cpu_view}-flame/profile.pb.gz"))
    total, _flat = top(profile, "-unit=ns")
    assert total == _flame_total(api, captures["cpu.perf.txt.gz"]["id"])[0]

    done = _stallscope(console_url, admin_token, "import", str(out), "--wait")
    new_incident = int(done.stdout.split()[1].rstrip(":"))
    listed = api.get(f"/api/incidents/{new_incident}/captures").json()
    again = {c["filename"]: c for c in listed}
    assert all(c["status"] in {"ready", "partial"} for c in again.values()), again
    numbers = {c["number"]: c for c in manifest["captures"]}
    by_records = {Path(c["records_file"]).name: numbers[c["number"]] for c in manifest["captures"]}
    for name, capture in again.items():
        original = captures[_original_name(by_records[name]["filename"], captures)]
        assert capture["sample_count"] == original["sample_count"], name
        if original["sample_count"]:
            assert _flame_total(api, capture["id"]) == _flame_total(api, original["id"])
        assert capture["host"] == "host-1"


def _original_name(redacted: str, captures: dict[str, Any]) -> str:
    """File names carry no secret here, so the redacted name is the original."""
    assert redacted in captures, redacted
    return redacted
