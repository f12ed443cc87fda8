"""Uploads: the spool captures wait in, the HTTP client, the sender's retries, `upload` and `flush`."""
