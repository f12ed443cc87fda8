"""Importers: one per capture format, each yielding the canonical records of `model`."""
