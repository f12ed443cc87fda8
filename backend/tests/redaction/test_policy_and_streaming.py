"""Policies read from TOML and JSON; large files stream through the redactor a block at a time."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from stallscope.redaction import (
    CustomRule,
    KnownSecrets,
    PolicyError,
    RedactionPolicy,
    Redactor,
    load_policy_toml,
    policy_from_json,
    policy_to_json,
)
from stallscope.redaction.streaming import BLOCK_BYTES

pytestmark = pytest.mark.storage_neutral

RULES_TOML = """\
path_prefixes = ["/home/", "/data/customers/"]
path_depth = 2
hash_symbols = true

[rules]
addresses = false

[[custom]]
name = "ticket"
pattern = 'ACME-(\\d+)'
"""


def test_policies_round_trip_and_errors_name_the_rule() -> None:
    policy = load_policy_toml(RULES_TOML)
    assert policy.path_prefixes == ("/home/", "/data/customers/")
    assert [policy.enabled(rule) for rule in ("addresses", "hostnames", "symbols")] == [False, True, True]
    assert policy.custom == (CustomRule("ticket", r"ACME-(\d+)"),)
    assert policy_from_json(policy_to_json(policy)) == policy
    assert policy_from_json({}) == RedactionPolicy.default()
    assert policy_from_json(policy_to_json(RedactionPolicy.none())).is_off
    redactor = Redactor(policy)
    assert redactor.text("ACME-123 in /data/customers/bigbank/q3/app at 10.0.0.1") == (
        "ACME-ticket-1 in /data/customers/dir-1/dir-2/app at 10.0.0.1"
    )
    with pytest.raises(ValueError, match=r"custom rule 'broken': invalid regular expression"):
        policy_from_json({"custom": [{"name": "broken", "pattern": "ACME-("}]})
    with pytest.raises(PolicyError, match=r"custom\[1\] \(line 8\): custom rule 'bad': invalid regular"):
        load_policy_toml(
            '[[custom]]\nname = "ok"\npattern = "x"\n\n\n\n\n[[custom]]\nname = "bad"\npattern = "("\n'
        )
    with pytest.raises(PolicyError, match=r"rules\.hostname \(line 3\): unknown rule"):
        load_policy_toml("path_depth = 1\n[rules]\nhostname = false\n")
    with pytest.raises(PolicyError, match=r"not valid TOML: .*line 2"):
        load_policy_toml("path_depth = 1\nhash_symbols = yes\n")


def test_a_large_file_streams_in_blocks_with_odd_bytes_intact() -> None:
    line = b"\t            1172 leaf_hash+0x19 (/home/jsmith/build/app) \xff\xfe odd bytes\n"
    header = b"app 17063 [000]   320.927016:    1001001 cpu-clock:pppH: from 10.20.3.7\n"
    body = (header + line * 20) * (3 * BLOCK_BYTES // ((len(line) * 20) + len(header)))
    data = b"Linux pay-db7 6.1.0 #1 SMP\n" + body + b"last line pay-db7 without newline"
    consumed = 0

    def chunks() -> Iterator[bytes]:
        nonlocal consumed
        for start in range(0, len(data), 65_537):
            consumed = start + 65_537
            yield data[start : start + 65_537]

    redactor = Redactor(RedactionPolicy.default(), KnownSecrets())
    blocks = redactor.lines(chunks())
    first = next(blocks)
    assert consumed < len(data) // 2  # output began before the input was read
    out = first + b"".join(blocks)
    assert out.count(b"\n") == data.count(b"\n")
    assert [secret for secret in (b"jsmith", b"pay-db7", b"10.20.3.7") if secret in out] == []
    assert out.endswith(b"last line host-1 without newline")
    expected_line = b"\t            1172 leaf_hash+0x19 (/home/user-1/build/app) \xff\xfe odd bytes\n"
    assert out.count(expected_line) == data.count(line)
    report = {rule.id: rule.replacements for rule in redactor.report().rules}
    assert report["paths"] == data.count(b"/home/jsmith")  # every occurrence counted, cached or not
    assert report["addresses"] == data.count(b"10.20.3.7")
    off = Redactor(RedactionPolicy.none())
    assert b"".join(off.lines(iter([data]))) == data
