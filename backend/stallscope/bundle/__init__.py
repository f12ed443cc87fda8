"""The vendor escalation bundle: one zip of an incident that opens offline, and its import."""
