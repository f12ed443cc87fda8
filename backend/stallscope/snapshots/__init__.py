"""System snapshots of an incident (the collector's, or text ones) and the config diff between two."""
