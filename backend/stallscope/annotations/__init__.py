"""Free-text notes pinned to a time in an incident."""
