"""The redactor removes planted secrets from every kind of text a bundle carries, keeps symbols,
and streams."""

from __future__ import annotations

import io
import json

import pytest

from stallscope.ingest.model import ParseReport
from stallscope.ingest.perf_script import parse_perf_script
from stallscope.redaction import KnownSecrets, RedactionPolicy, Redactor
from tests.fixtures.corpus import corpus_file

pytestmark = pytest.mark.storage_neutral

CONTAINER_ID = "3f4e5a6b7c8d9e0f1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f7081"
POD_UID = "5b7c3f2a-9d1e-4c8b-a6f0-2e4d8c1b9a7f"
SECRETS = (
    "pay-db7",
    "acme-payments.example",
    "10.20.3.7",
    "2001:db8:42::7",
    "52:54:00:ab:cd:ef",
    "jsmith",
    "hunter2",
    "s3cr3t-t0ken",
    "payments-api",
    CONTAINER_ID,
    CONTAINER_ID[:12],
    POD_UID,
    POD_UID.replace("-", "_"),
)
"""Planted below; none of them may survive. The host's FQDN is pay-db7.acme-payments.example.com."""
SYMBOLS = (
    "std::vector<int, std::allocator<int> >::push_back",
    "rec_a",
    "leaf_hash",
    "__libc_start_call_main",
)

PLANTED = {
    "sysstat.txt": "Linux 6.1.0-13-amd64 (pay-db7) \t11/25/2026 \t_x86_64_\t(2 CPU)\n\n"
    "00:31:58        CPU      %usr     %nice      %sys\n00:31:59        all     83.25      0.00      2.54\n",
    "uname.txt": "Linux pay-db7 6.1.0-13-amd64 #1 SMP PREEMPT_DYNAMIC Debian 6.1.55-1 x86_64 GNU/Linux\n",
    "dmesg.txt": "Nov 25 10:00:01 pay-db7 kernel: [ 1.234] virtio_net virtio0 eth0: MAC 52:54:00:ab:cd:ef\n"
    "Nov 25 10:00:02 pay-db7 systemd[1]: Hostname set to <pay-db7.acme-payments.example.com>.\n"
    "[ 12.1] nfs: server 10.20.3.7 not responding, still trying (from 2001:db8:42::7)\n",
    "perf.txt": "app 17063 [000]   320.927016:    1001001 cpu-clock:pppH: \n"
    "\t            1172 leaf_hash+0x19 (/home/jsmith/build/app)\n"
    "\t            1264 rec_a+0x67 (/home/jsmith/build/app)\n"
    "\t           4a2f0 std::vector<int, std::allocator<int> >::push_back+0x10 (/home/jsmith/build/app)\n"
    "\t           2724a __libc_start_call_main+0x7a (/usr/lib/x86_64-linux-gnu/libc.so.6)\n\n",
    "ftrace.txt": "   payments-api-4622  [000] d..2. 12902.561850: sched_switch: prev_comm=payments-api "
    "prev_pid=4622 prev_prio=120 prev_state=S ==> next_comm=python next_pid=9253 next_prio=120\n",
    "snapshot.txt": "== hostname ==\npay-db7\n\n== env ==\nUSER=jsmith\nHOME=/home/jsmith\n"
    "API_KEY=s3cr3t-t0ken\nMALLOC_ARENA_MAX=2\n\n"
    "== id ==\nuid=1000(jsmith) gid=1000(jsmith) groups=1000(jsmith),27(sudo)\n\n"
    f"== /proc/4622/cgroup ==\n0::/system.slice/docker-{CONTAINER_ID}.scope\n"
    f"0::/kubepods.slice/kubepods-burstable-pod{POD_UID.replace('-', '_')}.slice\n\n"
    "== ps ==\njsmith 4622 0.3 postgres://app:hunter2@pay-db7.acme-payments.example.com/x "
    f"{CONTAINER_ID[:12]}\n",
    "metrics.csv": "epoch_ms,host,container,fsync_p99_us\n1795626703951,pay-db7,payments-api,6388.8\n",
}
SNAPSHOT_JSON = {
    "stallscope": "snapshot",
    "host": "pay-db7",
    "sections": {
        "kernel": {"uname": "Linux pay-db7 6.1.0-13-amd64 #1 SMP x86_64 GNU/Linux"},
        "processes": {
            "4622": {
                "cmdline": ["/home/jsmith/bin/app", "--db-password", "hunter2", "--threads", "16"],
                "cgroup": [f"0::/kubepods/burstable/pod{POD_UID}/{CONTAINER_ID}"],
                "environment": {"MALLOC_ARENA_MAX": "2", "DB_URL": "postgres://10.20.3.7/payments"},
            }
        },
        "net": {"addresses": ["10.20.3.7", "52:54:00:ab:cd:ef"], "threads": 16, "up": True},
    },
}


def known() -> KnownSecrets:
    return KnownSecrets(hosts={"pay-db7"}, containers={"payments-api"})


def test_planted_secrets_do_not_survive_and_pseudonyms_are_consistent() -> None:
    redactor = Redactor(RedactionPolicy.default(), known())
    outputs = {name: redactor.text(text) for name, text in PLANTED.items()}
    outputs["snapshot.json"] = json.dumps(redactor.json(SNAPSHOT_JSON))
    outputs["command line"] = redactor.command_line(
        "perf record -F 999 -a -g -o /home/jsmith/perf.data -- /home/jsmith/bin/app --token s3cr3t-t0ken"
    )
    for name, text in outputs.items():
        for secret in SECRETS:
            assert secret.lower() not in text.lower(), f"{secret!r} survived in {name}: {text}"
    for symbol in SYMBOLS:
        assert symbol in outputs["perf.txt"]
    # the same value reads the same everywhere, and again on a second call
    assert "(host-1)" in outputs["sysstat.txt"]
    assert "Linux host-1 6.1.0" in outputs["uname.txt"]
    assert "<host-1.domain-1>" in outputs["dmesg.txt"]
    assert "/home/user-1/build/app" in outputs["perf.txt"]
    assert "uid=1000(user-1)" in outputs["snapshot.txt"]
    assert "USER=user-1" in outputs["snapshot.txt"]
    assert "MALLOC_ARENA_MAX=2" in outputs["snapshot.txt"]  # tuning values are evidence: kept
    assert "docker-container-2.scope" in outputs["snapshot.txt"]
    assert "kubepods-burstable-pod-1.slice" in outputs["snapshot.txt"]
    assert outputs["snapshot.txt"].rstrip().endswith("container-2")  # the 12-character short id
    assert "1795626703951,host-1,container-1,6388.8" in outputs["metrics.csv"]
    assert redactor.text(PLANTED["perf.txt"]) == outputs["perf.txt"]
    assert redactor.text("ip 10.20.3.7 on pay-db7") == "ip ip-1 on host-1"
    assert outputs["command line"] == (
        "perf record -F 999 -a -g -o arg-1 -- /home/user-1/bin/app --token secret-1"
    )
    snapshot = json.loads(outputs["snapshot.json"])
    process = snapshot["sections"]["processes"]["4622"]
    assert process["cmdline"] == ["/home/user-1/bin/app", "--db-password", "secret-2", "--threads", "16"]
    assert process["cgroup"] == ["0::/kubepods/burstable/pod-1/container-2"]
    assert process["environment"]["MALLOC_ARENA_MAX"] == "2"
    assert snapshot["sections"]["net"] == {"addresses": ["ip-1", "mac-1"], "threads": 16, "up": True}
    # what must survive: names, versions, timestamps, addresses in hex, sysfs words
    survivors = (
        "std::vector a::b ffffffff81000000 12345.678901: libfoo.so.1.2.3.4 java-11.0.2.7 00:31:58 "
        "/proc/sys/vm/dirty_ratio vm.swappiness ::1 127.0.0.1 255.255.255.0"
    )
    vm_redactor = Redactor(RedactionPolicy.default(), KnownSecrets(hosts={"vm"}))
    assert vm_redactor.text(survivors) == survivors
    assert (
        vm_redactor.text("Linux 6.18.44-fc-v669 (vm) \t11/22/26")
        == "Linux 6.18.44-fc-v669 (host-1) \t11/22/26"
    )
    # the report says how much, never what
    report = redactor.report().to_json()
    assert {rule["id"]: rule["replacements"] > 0 for rule in report["rules"]} == {
        "hostnames": True,
        "users": True,
        "addresses": True,
        "paths": True,
        "arguments": True,
        "containers": True,
        "symbols": False,
    }
    for secret in SECRETS:
        assert secret not in json.dumps(report)


def test_preview_shows_matches_in_context_and_hashing_keeps_other_symbols() -> None:
    policy = RedactionPolicy(hash_symbols=True).without("addresses")
    redactor = Redactor(policy, KnownSecrets(hosts={"pay-db7"}, app_symbols={"rec_a"}), salt=b"k")
    preview = redactor.preview([("perf.txt", PLANTED["perf.txt"]), ("dmesg.txt", PLANTED["dmesg.txt"])])
    paths = preview.rule("paths")
    assert paths.matches == 3
    assert paths.examples[0].source == "perf.txt"
    assert (paths.examples[0].match, paths.examples[0].pseudonym) == ("jsmith", "user-1")
    assert paths.examples[0].before.endswith("leaf_hash+0x19 (/home/")
    assert paths.examples[0].after == "/build/app)\n\t            1264 rec_a+0x67"
    assert not preview.rule("addresses").enabled
    assert preview.rule("addresses").matches == 0
    assert preview.rule("hostnames").matches == 3
    assert redactor.report().replacements == 0  # a preview is not an export
    hashed = redactor.text(PLANTED["perf.txt"])
    assert "rec_a" not in hashed
    assert hashed.count(redactor.state.pseudonyms.symbol("rec_a")) == 1
    assert "leaf_hash+0x19" in hashed
    other_salt = Redactor(policy, KnownSecrets(app_symbols={"rec_a"}), salt=b"other")
    assert other_salt.state.pseudonyms.symbol("rec_a") != redactor.state.pseudonyms.symbol("rec_a")


@pytest.mark.parametrize(
    "parts",
    [
        ("perf-script", "flamegraph", "perf-vertx-stacks-01.txt"),
        ("perf-script", "flamegraph", "perf-rust-Yamakaky-dcpu.txt"),
        ("perf-script", "inferno", "collapse-perf", "cpp-stacks-std-function.txt"),
    ],
)
def test_real_perf_script_frames_are_unchanged(parts: tuple[str, ...]) -> None:
    raw = corpus_file(*parts).read_bytes()
    redactor = Redactor(RedactionPolicy.default(), KnownSecrets(hosts={"pay-db7"}, users={"jsmith"}))
    redacted = b"".join(redactor.lines(raw[i : i + 4096] for i in range(0, len(raw), 4096)))

    def frames(data: bytes) -> tuple[int, set[str]]:
        samples = list(parse_perf_script(io.BytesIO(data), ParseReport()))
        return len(samples), {frame.name for sample in samples for frame in sample.stack}

    before, after = frames(raw), frames(redacted)
    assert before[0] > 0
    assert after == before
