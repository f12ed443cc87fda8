"""Thread-state breakdowns: time and share per thread in each scheduler state."""
