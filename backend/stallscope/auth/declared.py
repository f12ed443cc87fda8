"""The permission each API route declares, read from the OpenAPI schema the routes produce.

`guard.py` puts a route's permission in its security requirement (as the scope); this module reads it
back, for the check at start-up and for the role-matrix test. Both see the same thing a client sees.
"""

from __future__ import annotations

from typing import Any

from stallscope.auth.guard import PUBLIC_ROUTES
from stallscope.auth.roles import Permission

HTTP_METHODS = ("get", "put", "post", "patch", "delete")


def declared_permissions(schema: dict[str, Any]) -> dict[tuple[str, str], Permission | None]:
    """(METHOD, path) of every /api operation → its permission (None: public)."""
    declared: dict[tuple[str, str], Permission | None] = {}
    for path, operations in schema.get("paths", {}).items():
        if not path.startswith("/api/"):
            continue
        for method, operation in operations.items():
            if method not in HTTP_METHODS:
                continue
            scopes = {
                scope
                for requirement in operation.get("security", [])
                for s in requirement.values()
                for scope in s
            }
            if len(scopes) > 1:
                raise RuntimeError(f"{method.upper()} {path} declares several permissions: {sorted(scopes)}")
            declared[(method.upper(), path)] = Permission(scopes.pop()) if scopes else None
    return declared


def undeclared_routes(schema: dict[str, Any]) -> list[str]:
    """API routes with no permission that are not public: a route someone forgot to protect."""
    return sorted(
        f"{method} {path}"
        for (method, path), permission in declared_permissions(schema).items()
        if permission is None and (method, path) not in PUBLIC_ROUTES
    )
