"""What only the S3 store has: its bucket made at the first start, and a store that is away."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest

from stallscope.blobs.configured import BlobUrlError, make_store
from stallscope.blobs.local import LocalBlobStore
from stallscope.blobs.s3 import S3BlobStore
from stallscope.blobs.store import BlobStoreUnavailable
from tests.fixtures.object_store import ObjectStoreServer
from tests.fixtures.processes import free_port


def test_a_missing_bucket_is_made_once_and_found_after(
    object_store_server: ObjectStoreServer, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    for name, value in object_store_server.environment().items():
        monkeypatch.setenv(name, value)
    bucket = f"fresh-{uuid.uuid4().hex[:12]}"
    store = make_store(f"s3://{bucket}/a/b", tmp_path)
    assert isinstance(store, S3BlobStore)
    assert store.prefix == "a/b"
    store.prepare()
    store.prepare()  # a second process starting finds it
    assert bucket in {b["Name"] for b in store.client.list_buckets()["Buckets"]}
    upload = store.start_upload(1 << 20)
    upload.write(b"hello\n")
    blob = upload.commit()
    assert blob.location == f"s3://{bucket}/a/b/{blob.sha256[:2]}/{blob.sha256[2:4]}/{blob.sha256}"


def test_a_missing_blob_is_not_found(s3_store: S3BlobStore) -> None:
    with pytest.raises(FileNotFoundError, match="no such object"):
        s3_store.open("0" * 64)


def test_a_store_that_is_away_is_named_in_the_error(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("AWS_ENDPOINT_URL_S3", f"http://127.0.0.1:{free_port()}")
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "k")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "s")
    store = make_store("s3://nowhere/blobs", tmp_path)
    with pytest.raises(BlobStoreUnavailable, match=r"s3://nowhere/blobs: could not find the bucket"):
        store.prepare()


@pytest.mark.parametrize(
    ("url", "problem"),
    [
        ("s3:///prefix", "name the bucket"),
        ("file://host/path", "absolute path"),
        ("http://example.com/blobs", "use s3://bucket/prefix"),
    ],
)
def test_a_blob_url_the_console_cannot_use_says_what_would_do(url: str, problem: str, tmp_path: Path) -> None:
    with pytest.raises(BlobUrlError, match=problem):
        make_store(url, tmp_path)


def test_no_url_or_a_file_url_is_a_local_directory(tmp_path: Path) -> None:
    default = make_store("", tmp_path / "default")
    assert isinstance(default, LocalBlobStore)
    assert default.root == tmp_path / "default"
    chosen = make_store(f"file://{tmp_path}/chosen", tmp_path / "default")
    assert isinstance(chosen, LocalBlobStore)
    assert chosen.root == tmp_path / "chosen"
