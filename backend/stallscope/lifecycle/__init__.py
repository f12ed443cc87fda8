"""The incident lifecycle: status and its timestamps, edits, the trash, purging and retention."""
