"""Roles and the permissions they grant: the one table every route's permission is checked against.

A route declares the permission it needs (`guard.py`); a principal's role says which it holds.
Guests (a vendor with a link) read one incident; collector tokens only upload.
"""

from __future__ import annotations

from enum import StrEnum


class Permission(StrEnum):
    READ = "read"
    """See incidents, captures and every view of them."""
    RESPOND = "respond"
    """Create and edit incidents, upload, annotate, share, export, judge findings."""
    UPLOAD = "upload"
    """Send captures (what a collector token can do, and nothing else)."""
    ADMIN = "admin"
    """People, every token, retention, the audit log."""
    EXPORT = "export"
    """Download an incident's bundle: responders, and a guest whose link allows it."""


class Role(StrEnum):
    VIEWER = "viewer"
    RESPONDER = "responder"
    ADMIN = "admin"
    GUEST = "guest"
    """A guest link's holder: reads the incident the link names, nothing else."""
    COLLECTOR = "collector"
    """A collector (upload-only) token."""


ACCOUNT_ROLES = (Role.VIEWER, Role.RESPONDER, Role.ADMIN)
"""The roles a person's account can have."""

GRANTS: dict[Role, frozenset[Permission]] = {
    Role.VIEWER: frozenset({Permission.READ}),
    Role.RESPONDER: frozenset({Permission.READ, Permission.RESPOND, Permission.UPLOAD, Permission.EXPORT}),
    Role.ADMIN: frozenset(Permission),
    Role.GUEST: frozenset({Permission.READ}),
    Role.COLLECTOR: frozenset({Permission.UPLOAD}),
}

VERBS: dict[Permission, str] = {
    Permission.READ: "read incidents",
    Permission.RESPOND: "change incidents (responder or admin)",
    Permission.UPLOAD: "upload captures",
    Permission.ADMIN: "administer the console (admin)",
    Permission.EXPORT: "download the incident's bundle (responder, or a guest link that allows it)",
}
