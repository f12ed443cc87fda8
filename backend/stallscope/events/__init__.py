"""Timed events (syscalls, faults, off-CPU intervals, function timings): listing and sorting."""
