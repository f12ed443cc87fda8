"""Incidents: the investigations captures belong to."""
