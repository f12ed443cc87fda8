"""Findings of an incident: capture digests kept after each parse, detectors run on them, verdicts."""
