"""Metric series and their points, downsampled on the server to what a chart can show."""
