"""IPv4, IPv6 and MAC addresses, checked with `ipaddress` before they are replaced.

Why: addresses map a company's network (`10.20.3.7`, `2001:db8:42::7`, a NIC's `52:54:00:12:34:56`).
The hard part is what must survive: C++ and Rust paths (`std::vector`, `a::b`), hex addresses
(`ffffffff81000000`), perf timestamps (`12345.678901:`), clock times (`00:31:58`) and versions with
four numbers (`libfoo.so.1.2.3.4`, `java-11.0.2.7`). So a candidate must stand alone (no letter, digit
or dot glued to it; a version's `name-` before it), must parse, and an IPv6 one must hold a decimal
digit. Addresses that identify no one are kept: unspecified, loopback, multicast, broadcast and
netmask-like (`255.255.255.0`), and the all-zero and broadcast MACs.
"""

from __future__ import annotations

import ipaddress
import re

from stallscope.redaction.engine import Fragment, Swap
from stallscope.redaction.policy import ADDRESSES
from stallscope.redaction.state import State

ID = ADDRESSES
LABEL = "IP and MAC addresses"

_MAC = (
    r"(?<![\w:.-])[0-9A-Fa-f]{2}(?P<mac_sep>[:-])[0-9A-Fa-f]{2}(?:(?P=mac_sep)[0-9A-Fa-f]{2}){4}"
    r"(?![\w:-])(?!\.\w)"
)
_IPV6 = r"(?<![\w:.])(?=[0-9A-Fa-f:]*::|(?:[0-9A-Fa-f]{1,4}:){7})[0-9A-Fa-f:]{2,39}(?![\w:])(?!\.\d)"
"""Two colons in a row, or eight groups: the forms an address takes, and `17:11:43` does not."""
_IPV4 = r"(?<![\w.])(?<![A-Za-z_]-)(?:\d{1,3}\.){3}\d{1,3}(?![\w])(?!\.\d)"
_MAC_GATES = (
    re.compile(r":[0-9A-Fa-f]{2}:[0-9A-Fa-f]{2}:"),
    re.compile(r"-[0-9A-Fa-f]{2}-[0-9A-Fa-f]{2}-"),
)
_IPV6_GATES = (
    re.compile(r"::(?:[0-9A-Fa-f]{1,4}(?![\w:])|[0-9A-Fa-f]{1,4}:)|::(?<=[0-9A-Fa-f]::)(?![\w:])"),
    re.compile(r":[0-9A-Fa-f]{1,4}:[0-9A-Fa-f]{1,4}:[0-9A-Fa-f]{1,4}:[0-9A-Fa-f]{1,4}:"),
)
"""`::` followed or preceded by a group of hex digits (not `std::vector`), or eight groups."""
_IPV4_GATES = (re.compile(r"\.\d{1,3}\.\d{1,3}\.\d"),)
_KEPT_MACS = frozenset({"00:00:00:00:00:00", "ff:ff:ff:ff:ff:ff"})


def _identifies_no_one(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    return (
        address.is_unspecified
        or address.is_loopback
        or address.is_multicast
        or (address.version == 4 and (address.is_reserved or str(address).startswith("255.")))
    )


class AddressRule:
    id = ID
    label = LABEL

    def __init__(self, state: State) -> None:
        self.state = state

    def learn(self, text: str, lowered: str) -> None:
        return None

    def fragments(self) -> list[Fragment]:
        return [
            Fragment("mac", _MAC, self._mac, gates=_MAC_GATES),
            Fragment("ipv6", _IPV6, self._ipv6, gates=_IPV6_GATES),
            Fragment("ipv4", _IPV4, self._ipv4, gates=_IPV4_GATES),
        ]

    def _mac(self, match: re.Match[str]) -> Swap | None:
        value = match.group().lower().replace("-", ":")
        if value in _KEPT_MACS:
            return None
        return Swap(ID, match.start(), match.end(), self.state.pseudonyms.of("mac", value))

    def _ipv6(self, match: re.Match[str]) -> Swap | None:
        text = match.group()
        if not any(char.isdigit() for char in text):
            return None  # `a::b`, `beef::cafe`: names, not addresses anyone writes
        try:
            address = ipaddress.IPv6Address(text)
        except ValueError:
            return None
        if _identifies_no_one(address):
            return None
        return Swap(ID, match.start(), match.end(), self.state.pseudonyms.of("ip6", address.compressed))

    def _ipv4(self, match: re.Match[str]) -> Swap | None:
        try:
            address = ipaddress.IPv4Address(match.group())
        except ValueError:
            return None
        if _identifies_no_one(address):
            return None
        return Swap(ID, match.start(), match.end(), self.state.pseudonyms.of("ip", str(address)))
