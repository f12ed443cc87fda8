"""Command-line tools that read capture files locally, with the server's own parsers."""
