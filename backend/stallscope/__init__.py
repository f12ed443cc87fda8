"""Stallscope: a self-hosted console for latency and performance incidents on Linux servers."""

__version__ = "0.1.0"
