"""Values the exporter already knows are secret, before any text is read."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class KnownSecrets:
    """Filled by the exporter from the incident: capture host names, the hostname and FQDN of
    snapshots, user names, container names, and the application symbols (hashed only when the
    policy's `hash_symbols` is on). The redactor adds what it discovers while reading."""

    hosts: set[str] = field(default_factory=set)
    users: set[str] = field(default_factory=set)
    containers: set[str] = field(default_factory=set)
    app_symbols: set[str] = field(default_factory=set)
