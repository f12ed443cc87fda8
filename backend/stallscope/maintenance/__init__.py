"""Periodic housekeeping `serve` runs beside the API: recover stalled parses, sweep orphaned files."""
