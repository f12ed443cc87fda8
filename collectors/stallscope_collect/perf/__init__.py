"""perf: finding it, what it may record here, and the command lines of a record."""
