"""The blob store this process uses, chosen by `STALLSCOPE_BLOB_URL`.

Unset (or `file:///path`): a local directory, `<data dir>/blobs` by default. `s3://bucket/prefix`:
S3-compatible object storage, configured by the usual variables `AWS_ENDPOINT_URL_S3` (or
`AWS_ENDPOINT_URL`), `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY` and `AWS_REGION`. With an endpoint
set (a self-hosted store such as SeaweedFS) buckets are addressed by path, which such stores expect.
"""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import unquote, urlsplit

from stallscope.blobs.local import LocalBlobStore
from stallscope.blobs.s3 import S3BlobStore
from stallscope.blobs.store import BlobStore
from stallscope.config import Settings, get_settings

DEFAULT_REGION = "us-east-1"
CONNECT_TIMEOUT_S = 5
READ_TIMEOUT_S = 60
ATTEMPTS = 5
"""Tries of each request, the client's own back-off between them (the standard retry mode)."""

_stores: dict[tuple[int, str], BlobStore] = {}


class BlobUrlError(ValueError):
    """STALLSCOPE_BLOB_URL names no store this console can use."""


def blob_store(settings: Settings | None = None) -> BlobStore:
    """This process's store. Made once per process: a client made before a fork must not be shared
    by the worker processes forked from it."""
    settings = settings or get_settings()
    target = settings.blob_url or ""
    cache_key = (os.getpid(), f"{target}|{settings.blob_dir}")
    store = _stores.get(cache_key)
    if store is None:
        store = _stores[cache_key] = make_store(target, settings.blob_dir)
    return store


def make_store(url: str, default_dir: Path) -> BlobStore:
    if not url:
        return LocalBlobStore(default_dir)
    parts = urlsplit(url)
    if parts.scheme == "file":
        if parts.netloc not in {"", "localhost"} or not parts.path:
            raise BlobUrlError(
                f"STALLSCOPE_BLOB_URL={url!r}: a file URL needs an absolute path, file:///path"
            )
        return LocalBlobStore(Path(unquote(parts.path)))
    if parts.scheme == "s3":
        if not parts.netloc:
            raise BlobUrlError(f"STALLSCOPE_BLOB_URL={url!r}: name the bucket, s3://bucket/prefix")
        return _s3_store(parts.netloc, unquote(parts.path))
    raise BlobUrlError(
        f"STALLSCOPE_BLOB_URL={url!r}: use s3://bucket/prefix for object storage, or leave it unset "
        "for the data directory"
    )


def _s3_store(bucket: str, prefix: str) -> S3BlobStore:
    import boto3  # a second or so of imports that only the S3 backend needs
    from botocore.config import Config

    region = os.environ.get("AWS_REGION") or os.environ.get("AWS_DEFAULT_REGION") or DEFAULT_REGION
    endpoint = os.environ.get("AWS_ENDPOINT_URL_S3") or os.environ.get("AWS_ENDPOINT_URL")
    config = Config(
        region_name=region,
        connect_timeout=CONNECT_TIMEOUT_S,
        read_timeout=READ_TIMEOUT_S,
        retries={"mode": "standard", "max_attempts": ATTEMPTS},
        s3={"addressing_style": "path" if endpoint else "auto"},
        # Checksums only where S3 requires them: self-hosted stores do not all accept the newer ones.
        request_checksum_calculation="when_required",
        response_checksum_validation="when_required",
    )
    client = boto3.session.Session().client("s3", endpoint_url=endpoint, config=config)
    return S3BlobStore(client, bucket, prefix, region)
