"""Raw uploads, kept byte for byte under their SHA-256: the store's contract (`store.py`), what an
upload is measured by on its way in (`metering.py`), and the two backends (`local.py`, `s3.py`)."""
