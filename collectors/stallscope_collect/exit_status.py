"""Exit statuses, the same for every command."""

from __future__ import annotations

EXIT_OK = 0
EXIT_ERROR = 1
EXIT_USAGE = 2
EXIT_PENDING = 3
"""Recorded, but some uploads are still waiting in the spool."""
