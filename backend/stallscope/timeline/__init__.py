"""The correlated timeline: every track of an incident bucketed on one wall-clock axis."""
