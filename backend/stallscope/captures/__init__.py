"""Uploaded captures: storage, parse status, and the parse job."""
