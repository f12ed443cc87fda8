"""Watch mode: hosts' watch streams, signatures checked on every watch upload, and the alerts they raise."""
