"""The console's own state for Prometheus: signature matches (watch mode), the parse queue and the
upload gate, at `GET /api/metrics` and, for scrapers, `GET /metrics`."""
