"""Flame-graph queries over stored samples."""
