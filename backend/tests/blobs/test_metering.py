"""The upload meter: odd streams are measured as the parser reads them, bombs refused at the limit."""

from __future__ import annotations

import gzip
import hashlib

import pytest
import zstandard

from stallscope.blobs.metering import CorruptCompression, Measured, UploadMeter, UploadTooLarge

TEXT = b"".join(
    b"app %d [000] 100.%06d: 1001 cpu-clock:\n\t    beef leaf (/usr/bin/app)\n\n" % (i, i)
    for i in range(30_000)
)
LIMIT = 64 << 20


def measure(data: bytes, chunk: int = 1 << 20, limit: int = LIMIT) -> Measured:
    meter = UploadMeter(limit)
    for start in range(0, len(data), chunk):
        meter.feed(data[start : start + chunk])
    return meter.finish()


@pytest.mark.timeout(60)
def test_a_two_member_gzip_in_one_chunk_is_measured_whole() -> None:
    """The meter once fed a finished member forever when one chunk held its end past 1 MiB of output."""
    member = gzip.compress(TEXT)
    assert len(TEXT) > 1 << 20
    measured = measure(member + member)
    assert measured.size_uncompressed == 2 * len(TEXT)
    assert measured.size_bytes == 2 * len(member)


@pytest.mark.parametrize("chunk", [1, 7, 4096, 1 << 20])
def test_every_chunking_gives_the_same_measure(chunk: int) -> None:
    small = TEXT[:20_000]
    zst = zstandard.ZstdCompressor().compress(small)
    data = gzip.compress(small) + gzip.compress(small) + bytes(10)
    assert measure(data, chunk).size_uncompressed == 2 * len(small)
    assert measure(zst + zst, chunk).size_uncompressed == 2 * len(small)


@pytest.mark.parametrize(
    ("tail", "what"), [(bytes(512), "zero padding"), (b"GET / HTTP/1.1\r\n", "trailing garbage")]
)
def test_bytes_after_the_last_member_are_kept_but_not_counted(tail: bytes, what: str) -> None:
    data = gzip.compress(TEXT) + tail
    measured = measure(data)
    assert measured.size_uncompressed == len(TEXT), what
    assert measured.size_bytes == len(data)


def test_a_stream_cut_after_some_data_is_accepted_for_the_parser_to_report() -> None:
    member = gzip.compress(TEXT)
    assert 0 < measure(member[: len(member) // 2]).size_uncompressed < len(TEXT)


@pytest.mark.parametrize(
    "data",
    [
        gzip.compress(TEXT)[:10] + b"\xff" * 64,
        gzip.compress(TEXT)[:6],
        b"\x28\xb5\x2f\xfd\x00\x00",
    ],
    ids=["corrupt-first-block", "cut-in-header", "zstd-bad-header"],
)
def test_a_stream_that_yields_nothing_is_refused(data: bytes) -> None:
    with pytest.raises(CorruptCompression, match="nothing decompresses from it"):
        measure(data)


@pytest.mark.parametrize("kind", ["gzip", "zstd"])
def test_a_bomb_is_refused_at_the_limit(kind: str) -> None:
    zeros = bytes(256 << 20)
    bomb = gzip.compress(zeros) if kind == "gzip" else zstandard.ZstdCompressor().compress(zeros)
    with pytest.raises(UploadTooLarge):
        measure(bomb, limit=1 << 20)


def test_bytes_that_decompress_to_nothing_still_count_against_the_limit() -> None:
    with pytest.raises(UploadTooLarge):
        measure(gzip.compress(b"tiny\n") + bytes(2 << 20), limit=1 << 20)


def test_the_digest_is_the_uploads_sha256() -> None:
    data = gzip.compress(TEXT)
    assert measure(data, chunk=1000).sha256 == hashlib.sha256(data).hexdigest()
