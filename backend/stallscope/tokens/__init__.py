"""Upload-only tokens that let collectors on other hosts send captures."""
