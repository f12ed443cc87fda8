"""Blobs in S3-compatible object storage: `s3://bucket/prefix/ab/cd/<sha256>`.

With this store an API and any number of workers on other hosts share nothing but the bucket. An
upload streams into a multipart upload at `prefix/incoming/upload-<id>` while it is metered (the
SHA-256 is only known at its end), then is copied to its content address inside the store, or
dropped when that address already holds the same bytes. An upload smaller than one part is known
whole before anything is sent, so it goes straight to its address. Reads fetch ranges of
`READ_BYTES`, so memory stays bounded and a parse that reads slowly holds no connection open.
"""

from __future__ import annotations

import io
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from botocore.exceptions import BotoCoreError, ClientError

from stallscope.blobs.metering import UploadMeter
from stallscope.blobs.store import SHA256_NAME, BlobEntry, BlobStoreUnavailable, StoredBlob, blob_key

if TYPE_CHECKING:
    from mypy_boto3_s3 import S3Client
    from mypy_boto3_s3.type_defs import CompletedPartTypeDef, CopySourceTypeDef

PART_BYTES = 8 << 20
"""Each multipart part: above S3's 5 MiB minimum, and what one upload holds in memory at most."""
READ_BYTES = 8 << 20
SINGLE_COPY_MAX = 5 << 30
"""S3's limit on one CopyObject; a larger blob is copied part by part."""
INCOMING = "incoming"
UPLOAD_ID = "stallscope-upload"
"""The metadata key naming the upload that last wrote or touched a blob (see `discard_new`)."""
MISSING = {"404", "NoSuchKey", "NotFound", "NoSuchUpload"}


class S3BlobStore:
    def __init__(self, client: S3Client, bucket: str, prefix: str, region: str) -> None:
        self.client = client
        self.bucket = bucket
        self.prefix = prefix.strip("/")
        self.region = region

    def __str__(self) -> str:
        return self.url

    def __repr__(self) -> str:
        return f"S3BlobStore({self.url!r})"

    @property
    def url(self) -> str:
        return f"s3://{self.bucket}/{self.prefix}" if self.prefix else f"s3://{self.bucket}"

    def key(self, name: str) -> str:
        return f"{self.prefix}/{name}" if self.prefix else name

    def prepare(self) -> None:
        """Create the bucket when it is missing (a fresh object store); two processes may race to."""
        with _store_errors(self, "find the bucket"):
            try:
                self.client.head_bucket(Bucket=self.bucket)
                return
            except ClientError as exc:
                if _code(exc) not in {"404", "NoSuchBucket", "NotFound"}:
                    raise
            try:
                if self.region == "us-east-1":
                    self.client.create_bucket(Bucket=self.bucket)
                else:
                    self.client.create_bucket(
                        Bucket=self.bucket,
                        CreateBucketConfiguration={"LocationConstraint": self.region},  # type: ignore[typeddict-item]
                    )
            except ClientError as exc:
                if _code(exc) not in {"BucketAlreadyOwnedByYou", "BucketAlreadyExists"}:
                    raise

    def start_upload(self, max_uncompressed_bytes: int) -> S3Upload:
        return S3Upload(self, max_uncompressed_bytes)

    def open(self, sha256: str) -> io.BufferedReader:
        key = self.key(blob_key(sha256))
        with _store_errors(self, f"read {key}"):
            size = self.client.head_object(Bucket=self.bucket, Key=key)["ContentLength"]
        return io.BufferedReader(RangedReader(self, key, size), buffer_size=1 << 20)

    def location(self, sha256: str) -> str:
        return f"s3://{self.bucket}/{self.key(blob_key(sha256))}"

    def head(self, sha256: str) -> tuple[float, str | None] | None:
        """(modified, the upload that last wrote or touched it) of a stored blob, or None."""
        key = self.key(blob_key(sha256))
        with _store_errors(self, f"look up {key}"):
            try:
                found = self.client.head_object(Bucket=self.bucket, Key=key)
            except ClientError as exc:
                if _code(exc) in MISSING:
                    return None
                raise
        return found["LastModified"].timestamp(), found.get("Metadata", {}).get(UPLOAD_ID)

    def discard_new(self, blob: StoredBlob) -> bool:
        if not blob.created:
            return False
        found = self.head(blob.sha256)
        if found is None or found[1] != blob.upload_id:
            return False
        self._delete(self.key(blob_key(blob.sha256)))
        return True

    def remove_unless_touched(self, sha256: str, since: float) -> bool:
        found = self.head(sha256)
        # Object times tick in whole seconds: a touch in the same second as `since` counts as after.
        if found is None or found[0] >= int(since):
            return False
        self._delete(self.key(blob_key(sha256)))
        return True

    def stored_blobs(self) -> Iterator[BlobEntry]:
        root = self.key("")
        pages = self.client.get_paginator("list_objects_v2").paginate(Bucket=self.bucket, Prefix=root)
        with _store_errors(self, "list the blobs"):
            for page in pages:
                for item in page.get("Contents", []):
                    relative = item["Key"][len(root) :]
                    name = relative.rpartition("/")[2]
                    if SHA256_NAME.fullmatch(name) and relative == blob_key(name):
                        yield BlobEntry(name, item["Size"], item["LastModified"].timestamp())

    def remove_stale_incoming(self, older_than_s: float) -> int:
        """Multipart uploads left open and incoming objects never copied, by their start time."""
        cutoff = time.time() - older_than_s
        incoming = self.key(INCOMING + "/")
        removed = 0
        with _store_errors(self, "sweep unfinished uploads"):
            uploads = self.client.get_paginator("list_multipart_uploads")
            for page in uploads.paginate(Bucket=self.bucket, Prefix=incoming):
                for upload in page.get("Uploads", []):
                    if upload["Initiated"].timestamp() < cutoff:
                        self._abort(upload["Key"], upload["UploadId"])
                        removed += 1
            objects = self.client.get_paginator("list_objects_v2")
            for listing in objects.paginate(Bucket=self.bucket, Prefix=incoming):
                for item in listing.get("Contents", []):
                    if item["LastModified"].timestamp() < cutoff:
                        self._delete(item["Key"])
                        removed += 1
        return removed

    def _delete(self, key: str) -> None:
        with _store_errors(self, f"delete {key}"):
            self.client.delete_object(Bucket=self.bucket, Key=key)

    def _abort(self, key: str, upload_id: str) -> None:
        with _store_errors(self, f"abort the upload of {key}"):
            try:
                self.client.abort_multipart_upload(Bucket=self.bucket, Key=key, UploadId=upload_id)
            except ClientError as exc:
                if _code(exc) not in MISSING:
                    raise


class S3Upload:
    """Parts of PART_BYTES go out as they fill; the rest at commit."""

    def __init__(self, store: S3BlobStore, max_uncompressed_bytes: int) -> None:
        self._store = store
        self._meter = UploadMeter(max_uncompressed_bytes)
        self._id = uuid.uuid4().hex
        self._temp_key = store.key(f"{INCOMING}/upload-{self._id}")
        self._pending = bytearray()
        self._multipart: str | None = None
        self._parts: list[CompletedPartTypeDef] = []
        self._temp_written = False

    def write(self, chunk: bytes) -> None:
        if not chunk:
            return
        self._meter.feed(chunk)
        self._pending += chunk
        while len(self._pending) >= PART_BYTES:
            self._send_part(bytes(self._pending[:PART_BYTES]))
            del self._pending[:PART_BYTES]

    def commit(self) -> StoredBlob:
        measured = self._meter.finish()
        store = self._store
        final = store.key(blob_key(measured.sha256))
        created = store.head(measured.sha256) is None
        if not created:
            try:
                self._touch(final)
            except FileNotFoundError:  # removed since the look-up: store it after all
                created = True
        if created:
            self._store_at(final, measured.size_bytes)
        self.abort()
        # No look-up for the object's own time: `discard_new` goes by the upload id it carries.
        touched_ns = time.time_ns()
        return StoredBlob(
            measured.sha256,
            store.location(measured.sha256),
            measured.size_bytes,
            measured.size_uncompressed,
            measured.compression,
            created,
            touched_ns,
            upload_id=self._id,
        )

    def abort(self) -> None:
        """Drop the incoming object or multipart upload (the blob at its address stays)."""
        self._pending = bytearray()
        if self._multipart is not None:
            self._store._abort(self._temp_key, self._multipart)
            self._multipart = None
        if self._temp_written:
            self._store._delete(self._temp_key)
            self._temp_written = False

    def _send_part(self, data: bytes) -> None:
        store, client = self._store, self._store.client
        with _store_errors(store, f"upload to {self._temp_key}"):
            if self._multipart is None:
                started = client.create_multipart_upload(Bucket=store.bucket, Key=self._temp_key)
                self._multipart = started["UploadId"]
            number = len(self._parts) + 1
            sent = client.upload_part(
                Bucket=store.bucket,
                Key=self._temp_key,
                UploadId=self._multipart,
                PartNumber=number,
                Body=data,
            )
        self._parts.append({"PartNumber": number, "ETag": sent["ETag"]})

    def _store_at(self, final: str, size: int) -> None:
        """Put the bytes at their address: at once when they fit in one part, else by a copy of the
        finished multipart upload."""
        store, client = self._store, self._store.client
        metadata = {UPLOAD_ID: self._id}
        if self._multipart is None:
            with _store_errors(store, f"store {final}"):
                client.put_object(
                    Bucket=store.bucket, Key=final, Body=bytes(self._pending), Metadata=metadata
                )
            return
        if self._pending:
            self._send_part(bytes(self._pending))
            self._pending = bytearray()
        with _store_errors(store, f"store {final}"):
            client.complete_multipart_upload(
                Bucket=store.bucket,
                Key=self._temp_key,
                UploadId=self._multipart,
                MultipartUpload={"Parts": self._parts},
            )
            self._multipart, self._temp_written = None, True
            source: CopySourceTypeDef = {"Bucket": store.bucket, "Key": self._temp_key}
            if size <= SINGLE_COPY_MAX:
                client.copy_object(
                    Bucket=store.bucket,
                    Key=final,
                    CopySource=source,
                    Metadata=metadata,
                    MetadataDirective="REPLACE",
                )
            else:
                client.copy(source, store.bucket, final, ExtraArgs={"Metadata": metadata})

    def _touch(self, key: str) -> None:
        """Copy the blob onto itself with this upload's id: its modification time moves on."""
        store = self._store
        with _store_errors(store, f"touch {key}"):
            store.client.copy_object(
                Bucket=store.bucket,
                Key=key,
                CopySource={"Bucket": store.bucket, "Key": key},
                Metadata={UPLOAD_ID: self._id},
                MetadataDirective="REPLACE",
            )


class RangedReader(io.RawIOBase):
    """A blob read READ_BYTES at a time by ranged GETs."""

    def __init__(self, store: S3BlobStore, key: str, size: int) -> None:
        self._store, self._key, self._size = store, key, size
        self._position = 0
        self._chunk = b""
        self._chunk_at = 0

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def tell(self) -> int:
        """How far the stored bytes have been read: parse progress is measured by it."""
        return self._position

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        base = {io.SEEK_SET: 0, io.SEEK_CUR: self._position, io.SEEK_END: self._size}[whence]
        self._position = max(0, base + offset)
        return self._position

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        if self._position >= self._size:
            return 0
        offset = self._position - self._chunk_at
        if not 0 <= offset < len(self._chunk):
            self._chunk = self._fetch(self._position)
            self._chunk_at, offset = self._position, 0
        n = min(len(buffer), len(self._chunk) - offset)
        buffer[:n] = self._chunk[offset : offset + n]
        self._position += n
        return n

    def _fetch(self, start: int) -> bytes:
        end = min(start + READ_BYTES, self._size) - 1
        with _store_errors(self._store, f"read {self._key}"):
            got = self._store.client.get_object(
                Bucket=self._store.bucket, Key=self._key, Range=f"bytes={start}-{end}"
            )
            data = got["Body"].read()
        if not data:
            raise BlobStoreUnavailable(
                f"{self._store.url}: {self._key} ended at byte {start} of {self._size}"
            )
        return data


def _code(exc: ClientError) -> str:
    return str(exc.response.get("Error", {}).get("Code", ""))


@contextmanager
def _store_errors(store: S3BlobStore, doing: str) -> Iterator[None]:
    """The client's errors as OSErrors naming the store and what failed: FileNotFoundError for a
    missing object, BlobStoreUnavailable for the rest (unreachable, refused, misconfigured)."""
    try:
        yield
    except ClientError as exc:
        if _code(exc) in MISSING:
            raise FileNotFoundError(f"{store.url}: could not {doing}: no such object") from exc
        raise BlobStoreUnavailable(f"{store.url}: could not {doing}: {exc}") from exc
    except BotoCoreError as exc:
        raise BlobStoreUnavailable(f"{store.url}: could not {doing}: {exc}") from exc
