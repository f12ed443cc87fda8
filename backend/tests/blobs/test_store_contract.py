"""The blob store's contract, held by both backends: the local directory and S3 object storage.

The S3 half runs against a real S3-compatible server in its own process (`fixtures/object_store.py`).
"""

from __future__ import annotations

import gzip
import hashlib
import time
from pathlib import Path

import pytest

from stallscope.blobs.local import LocalBlobStore
from stallscope.blobs.metering import UploadTooLarge
from stallscope.blobs.s3 import PART_BYTES, READ_BYTES, S3BlobStore
from stallscope.blobs.store import BlobStore, StoredBlob
from stallscope.kit.compression import Compression

LIMIT = 256 << 20
SMALL = b"svc 42/42 [001] 10.000100: 1000 cpu-clock:\n\t    1111 handle (/usr/bin/svc)\n\n"
LARGE = b"".join(hashlib.sha256(b"%d" % i).digest() for i in range((2 * PART_BYTES + 12345) // 32))
"""Incompressible, over two multipart parts and two read ranges, not a whole number of either."""


@pytest.fixture(params=["local", "s3"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> BlobStore:
    if request.param == "s3":
        s3: S3BlobStore = request.getfixturevalue("s3_store")
        return s3
    local = LocalBlobStore(tmp_path / "blobs")
    local.prepare()
    return local


def put(store: BlobStore, data: bytes, chunk: int = 1 << 20, limit: int = LIMIT) -> StoredBlob:
    upload = store.start_upload(limit)
    try:
        for start in range(0, len(data), chunk):
            upload.write(data[start : start + chunk])
        return upload.commit()
    except BaseException:
        upload.abort()
        raise


def read(store: BlobStore, sha256: str, piece: int = 1_000_003) -> bytes:
    with store.open(sha256) as raw:
        return b"".join(iter(lambda: raw.read(piece), b""))


def leftovers(store: BlobStore) -> list[str]:
    """What unfinished uploads left: temp files, open multipart uploads, incoming objects."""
    if isinstance(store, LocalBlobStore):
        return sorted(p.name for p in (store.root / "incoming").iterdir())
    assert isinstance(store, S3BlobStore)
    incoming = store.key("incoming/")
    uploads = store.client.list_multipart_uploads(Bucket=store.bucket, Prefix=incoming).get("Uploads", [])
    objects = store.client.list_objects_v2(Bucket=store.bucket, Prefix=incoming).get("Contents", [])
    return sorted([u["Key"] for u in uploads] + [o["Key"] for o in objects])


@pytest.mark.parametrize(
    "data", [SMALL, LARGE, gzip.compress(SMALL * 1000)], ids=["small", "multipart", "gzip"]
)
def test_a_blob_reads_back_byte_for_byte_at_its_content_address(store: BlobStore, data: bytes) -> None:
    blob = put(store, data)
    sha = hashlib.sha256(data).hexdigest()
    assert (blob.sha256, blob.size_bytes, blob.created) == (sha, len(data), True)
    assert sha in blob.location
    assert blob.location == store.location(sha)
    assert read(store, sha) == data
    assert read(store, sha, piece=READ_BYTES + 1) == data
    assert leftovers(store) == []


def test_the_meter_runs_on_the_way_in(store: BlobStore) -> None:
    blob = put(store, gzip.compress(SMALL * 1000))
    assert (blob.compression, blob.size_uncompressed) == (Compression.GZIP, len(SMALL) * 1000)


@pytest.mark.parametrize("data", [SMALL, LARGE], ids=["small", "multipart"])
def test_an_identical_upload_stores_nothing_new(store: BlobStore, data: bytes) -> None:
    first, second = put(store, data), put(store, data)
    assert (first.created, second.created) == (True, False)
    assert first.location == second.location
    assert second.touched_ns >= first.touched_ns
    assert [b.sha256 for b in store.stored_blobs()] == [first.sha256]
    assert leftovers(store) == []


def test_only_a_blob_this_upload_created_and_nobody_found_since_is_discarded(store: BlobStore) -> None:
    alone = put(store, b"only once\n")
    assert store.discard_new(alone)
    with pytest.raises(FileNotFoundError):
        store.open(alone.sha256)


def test_a_blob_that_was_there_before_is_never_discarded(store: BlobStore) -> None:
    put(store, b"twice\n")
    again = put(store, b"twice\n")
    assert not store.discard_new(again)
    assert read(store, again.sha256) == b"twice\n"


def test_a_blob_found_again_after_its_creation_is_kept(store: BlobStore) -> None:
    created = put(store, b"raced\n")
    put(store, b"raced\n")  # a second upload of the same bytes, right after: it may be recording it
    assert not store.discard_new(created)
    assert read(store, created.sha256) == b"raced\n"


def test_a_removal_spares_a_blob_touched_after_it_was_decided(store: BlobStore) -> None:
    blob = put(store, b"purged\n")
    assert not store.remove_unless_touched(blob.sha256, since=time.time() - 3600)
    assert read(store, blob.sha256) == b"purged\n"
    assert store.remove_unless_touched(blob.sha256, since=time.time() + 5)
    assert list(store.stored_blobs()) == []
    assert not store.remove_unless_touched(blob.sha256, since=time.time() + 5), "gone already"


def test_an_aborted_upload_leaves_nothing(store: BlobStore) -> None:
    upload = store.start_upload(LIMIT)
    upload.write(LARGE[: PART_BYTES + 1])  # a part already sent to S3
    upload.abort()
    assert leftovers(store) == []
    assert list(store.stored_blobs()) == []


def test_an_upload_over_the_limit_is_refused_midway_and_leaves_nothing(store: BlobStore) -> None:
    with pytest.raises(UploadTooLarge):
        put(store, LARGE, limit=PART_BYTES + 10)
    assert leftovers(store) == []
    assert list(store.stored_blobs()) == []


def test_stored_blobs_lists_blobs_and_nothing_else(store: BlobStore) -> None:
    a, b = put(store, b"first\n"), put(store, gzip.compress(b"second\n"))
    in_flight = store.start_upload(LIMIT)
    in_flight.write(LARGE[: PART_BYTES + 1])
    listed = {blob.sha256: blob for blob in store.stored_blobs()}
    assert set(listed) == {a.sha256, b.sha256}
    assert listed[b.sha256].size_bytes == b.size_bytes
    assert abs(listed[a.sha256].mtime - time.time()) < 3600
    in_flight.abort()


def test_what_dead_uploads_left_is_swept_and_live_ones_are_kept(store: BlobStore) -> None:
    abandoned = store.start_upload(LIMIT)
    abandoned.write(LARGE[: PART_BYTES + 1])
    time.sleep(2.2)  # object stores date things to the second
    live = store.start_upload(LIMIT)
    live.write(LARGE[: PART_BYTES + 1])
    assert store.remove_stale_incoming(older_than_s=1) == 1
    assert len(leftovers(store)) == 1
    live.write(LARGE[PART_BYTES + 1 :])
    done = live.commit()
    assert read(store, done.sha256) == LARGE
    assert leftovers(store) == []


def test_a_blob_reads_from_any_position_and_tells_how_far_it_is(store: BlobStore) -> None:
    """The parse measures its progress by `tell`; a seek lands in another read range."""
    blob = put(store, LARGE)
    with store.open(blob.sha256) as raw:
        assert raw.read(5) == LARGE[:5]
        assert raw.tell() == 5
        raw.seek(READ_BYTES + 3)
        assert raw.read(10) == LARGE[READ_BYTES + 3 : READ_BYTES + 13]
        assert raw.tell() == READ_BYTES + 13
        raw.seek(-4, 2)
        assert raw.read() == LARGE[-4:]
