"""The upload meter and the blob store: odd streams are measured as the parser reads them."""

from __future__ import annotations

import gzip
import os
import time
from pathlib import Path

import pytest
import zstandard

from stallscope.kit.blobstore import (
    BlobWriter,
    CorruptCompression,
    StoredBlob,
    UploadTooLarge,
    discard_new_blob,
    remove_stale_incoming,
    stored_blobs,
)

TEXT = b"".join(
    b"app %d [000] 100.%06d: 1001 cpu-clock:\n\t    beef leaf (/usr/bin/app)\n\n" % (i, i)
    for i in range(30_000)
)
LIMIT = 64 << 20


def store(root: Path, data: bytes, chunk: int = 1 << 20, limit: int = LIMIT) -> StoredBlob:
    writer = BlobWriter(root, limit)
    try:
        for start in range(0, len(data), chunk):
            writer.write(data[start : start + chunk])
        return writer.commit()
    except BaseException:
        writer.abort()
        raise


def incoming(root: Path) -> list[Path]:
    return sorted((root / "incoming").iterdir())


@pytest.mark.timeout(60)
def test_a_two_member_gzip_in_one_chunk_is_measured_whole(tmp_path: Path) -> None:
    """The meter once fed a finished member forever when one chunk held its end past 1 MiB of output."""
    member = gzip.compress(TEXT)
    assert len(TEXT) > 1 << 20
    blob = store(tmp_path, member + member)
    assert blob.size_uncompressed == 2 * len(TEXT)
    assert blob.path.read_bytes() == member + member
    assert incoming(tmp_path) == []


@pytest.mark.parametrize("chunk", [1, 7, 4096, 1 << 20])
def test_every_chunking_gives_the_same_measure(tmp_path: Path, chunk: int) -> None:
    small = TEXT[:20_000]
    zst = zstandard.ZstdCompressor().compress(small)
    data = gzip.compress(small) + gzip.compress(small) + bytes(10)
    assert store(tmp_path / "gz", data, chunk).size_uncompressed == 2 * len(small)
    assert store(tmp_path / "zst", zst + zst, chunk).size_uncompressed == 2 * len(small)


@pytest.mark.parametrize(
    ("tail", "what"), [(bytes(512), "zero padding"), (b"GET / HTTP/1.1\r\n", "trailing garbage")]
)
def test_bytes_after_the_last_member_are_stored_but_not_counted(
    tmp_path: Path, tail: bytes, what: str
) -> None:
    data = gzip.compress(TEXT) + tail
    blob = store(tmp_path, data)
    assert blob.size_uncompressed == len(TEXT), what
    assert blob.path.read_bytes() == data, "the upload is kept byte for byte"


def test_a_stream_cut_after_some_data_is_accepted_for_the_parser_to_report(tmp_path: Path) -> None:
    member = gzip.compress(TEXT)
    blob = store(tmp_path, member[: len(member) // 2])
    assert 0 < blob.size_uncompressed < len(TEXT)


@pytest.mark.parametrize(
    "data",
    [
        gzip.compress(TEXT)[:10] + b"\xff" * 64,
        gzip.compress(TEXT)[:6],
        b"\x28\xb5\x2f\xfd\x00\x00",
    ],
    ids=["corrupt-first-block", "cut-in-header", "zstd-bad-header"],
)
def test_a_stream_that_yields_nothing_is_refused(tmp_path: Path, data: bytes) -> None:
    with pytest.raises(CorruptCompression, match="nothing decompresses from it"):
        store(tmp_path, data)
    assert incoming(tmp_path) == []


@pytest.mark.parametrize("kind", ["gzip", "zstd"])
def test_a_bomb_is_refused_at_the_limit(tmp_path: Path, kind: str) -> None:
    zeros = bytes(256 << 20)
    bomb = gzip.compress(zeros) if kind == "gzip" else zstandard.ZstdCompressor().compress(zeros)
    with pytest.raises(UploadTooLarge):
        store(tmp_path, bomb, limit=1 << 20)


def test_bytes_that_decompress_to_nothing_still_count_against_the_limit(tmp_path: Path) -> None:
    with pytest.raises(UploadTooLarge):
        store(tmp_path, gzip.compress(b"tiny\n") + bytes(2 << 20), limit=1 << 20)
    assert incoming(tmp_path) == []


def test_commit_tells_who_created_the_blob(tmp_path: Path) -> None:
    first = store(tmp_path, b"same bytes\n")
    second = store(tmp_path, b"same bytes\n")
    assert (first.created, second.created) == (True, False)
    assert first.path == second.path
    assert second.mtime_ns >= first.mtime_ns
    assert incoming(tmp_path) == []


def test_only_a_blob_this_upload_created_and_nobody_found_since_is_discarded(tmp_path: Path) -> None:
    alone = store(tmp_path, b"only once\n")
    assert discard_new_blob(alone)
    assert not alone.path.exists()


def test_a_blob_that_was_there_before_is_never_discarded(tmp_path: Path) -> None:
    store(tmp_path, b"twice\n")
    again = store(tmp_path, b"twice\n")
    assert not again.created
    assert not discard_new_blob(again)
    assert again.path.exists()


def test_a_blob_found_again_after_its_creation_is_kept(tmp_path: Path) -> None:
    created = store(tmp_path, b"raced\n")
    found = store(tmp_path, b"raced\n")  # a second upload of the same bytes, right after
    assert found.mtime_ns > created.mtime_ns
    assert not discard_new_blob(created), "the second upload may be recording it"
    assert created.path.exists()


def test_stale_temp_files_are_removed_and_live_ones_kept(tmp_path: Path) -> None:
    abandoned, live = BlobWriter(tmp_path, LIMIT), BlobWriter(tmp_path, LIMIT)
    abandoned.write(b"killed mid-upload")
    live.write(b"still coming")
    old = time.time() - 3600
    os.utime(abandoned.temp_path, (old, old))
    (tmp_path / "incoming" / "notes.txt").write_text("not an upload")
    os.utime(tmp_path / "incoming" / "notes.txt", (old, old))
    assert remove_stale_incoming(tmp_path, older_than_s=600) == 1
    assert not abandoned.temp_path.exists()
    assert live.temp_path.exists()
    assert (tmp_path / "incoming" / "notes.txt").exists()
    live.write(b" and done")
    assert live.commit().path.read_bytes() == b"still coming and done"
    assert remove_stale_incoming(tmp_path / "nowhere", 0) == 0


def test_stored_blobs_lists_blobs_and_nothing_else(tmp_path: Path) -> None:
    a = store(tmp_path, b"first\n")
    b = store(tmp_path, gzip.compress(b"second\n"))
    (tmp_path / "README").write_text("stray")
    (a.path.parent / "not-a-hash").write_text("stray")
    (tmp_path / "zz").mkdir()
    BlobWriter(tmp_path, LIMIT).write(b"in flight")
    listed = {blob.sha256: blob for blob in stored_blobs(tmp_path)}
    assert set(listed) == {a.sha256, b.sha256}
    assert listed[a.sha256].path == a.path
    assert listed[b.sha256].size_bytes == b.size_bytes
    assert listed[a.sha256].mtime == a.path.stat().st_mtime
    assert list(stored_blobs(tmp_path / "nowhere")) == []
