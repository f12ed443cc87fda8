"""The parse-time reader: odd and damaged gzip and zstd streams keep what decodes and say what was lost."""

from __future__ import annotations

import gzip
import io
import zlib
from pathlib import Path

import pytest
import zstandard

from stallscope.ingest.model import ParseReport
from stallscope.kit.compression import decompressing_reader, open_capture, sniff_compression
from stallscope.kit.stream_decoder import CorruptCompression, StreamDecoder, gzip_format, zstd_format

TEXT = b"".join(
    b"app %d [000] 100.%06d: 1001 cpu-clock:\n\t    %x leaf (/usr/bin/app)\n\n" % (i, i, i * 7919)
    for i in range(30_000)
)
"""About 2 MiB: each member decompresses to well over the 1 MiB a decoding step produces."""
SKIPPABLE_FRAME = b"\x50\x2a\x4d\x18" + (4).to_bytes(4, "little") + b"note"


def zstd(data: bytes) -> bytes:
    return zstandard.ZstdCompressor(write_checksum=True).compress(data)


COMPRESSORS = {"gzip": gzip.compress, "zstd": zstd}


def read_all(data: bytes, report: ParseReport | None = None) -> bytes:
    raw = io.BufferedReader(io.BytesIO(data))
    return decompressing_reader(raw, sniff_compression(data[:4]), report).read()


def test_gzip_members_one_after_another_are_one_stream() -> None:
    member = gzip.compress(TEXT)
    report = ParseReport()
    assert read_all(member + member, report) == TEXT + TEXT
    assert report.warnings == []


def test_zstd_frames_and_skippable_frames_are_one_stream() -> None:
    frame = zstd(TEXT)
    report = ParseReport()
    assert read_all(frame + SKIPPABLE_FRAME + frame, report) == TEXT + TEXT
    assert report.warnings == []


@pytest.mark.parametrize("name", COMPRESSORS)
def test_zero_padding_after_the_last_member_is_ignored_silently(name: str) -> None:
    report = ParseReport()
    assert read_all(COMPRESSORS[name](TEXT) + bytes(4096), report) == TEXT
    assert report.warnings == []
    assert not report.truncated


@pytest.mark.parametrize("name", COMPRESSORS)
def test_trailing_garbage_is_left_out_and_reported_but_loses_nothing(name: str) -> None:
    member = COMPRESSORS[name](TEXT)
    report = ParseReport()
    assert read_all(member + b"\0\0uploaded by cron at 03:12\n", report) == TEXT
    [warning] = report.warnings
    assert f"from byte {len(member):,} on" in warning.message
    assert "trailing garbage" in warning.message
    assert warning.line == TEXT.count(b"\n") + 1
    assert not report.truncated, "bytes after the last member are no part of the capture"


@pytest.mark.parametrize("name", COMPRESSORS)
def test_a_cut_stream_keeps_what_decoded_and_names_the_byte(name: str) -> None:
    member = COMPRESSORS[name](TEXT)
    cut = member + member[: len(member) // 2]
    report = ParseReport()
    out = read_all(cut, report)
    assert len(TEXT) < len(out) < 2 * len(TEXT)
    assert (TEXT + TEXT).startswith(out)
    [warning] = report.warnings
    assert f"cut off at byte {len(cut):,}" in warning.message
    assert f"the {name} data" in warning.message
    assert f"starts at byte {len(member):,}" in warning.message
    assert warning.line == out.count(b"\n") + 1
    assert report.truncated


def test_a_gzip_crc_mismatch_keeps_every_decoded_byte() -> None:
    """zlib drops what it decoded in the call that fails; the reader must not."""
    member = bytearray(gzip.compress(TEXT))
    member[-8] ^= 0xFF  # the CRC-32 in the member's trailer
    report = ParseReport()
    assert read_all(bytes(member), report) == TEXT
    [warning] = report.warnings
    assert "incorrect data check" in warning.message
    assert f"found at byte {len(member) - 5:,}" in warning.message  # the CRC's last byte completes it
    assert report.truncated


def test_corrupt_gzip_block_keeps_the_bytes_before_it_and_names_the_byte() -> None:
    compressor = zlib.compressobj(0, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    member = bytearray(compressor.compress(TEXT) + compressor.flush())
    first_len = int.from_bytes(member[11:13], "little")  # stored block: header byte, LEN, NLEN
    second = 10 + 5 + first_len
    member[second + 3] ^= 0xFF  # the second block's NLEN no longer complements its LEN
    report = ParseReport()
    assert read_all(bytes(member), report) == TEXT[:first_len]
    [warning] = report.warnings
    assert f"invalid stored block lengths, found at byte {second + 4:,}" in warning.message
    assert f"the {first_len:,} bytes decompressed before it were kept" in warning.message
    assert report.truncated


def test_corrupt_zstd_frame_keeps_the_frames_before_it() -> None:
    frame = zstd(TEXT)
    bad = bytearray(frame)
    bad[4] |= 0x08  # a reserved bit of the frame header descriptor
    report = ParseReport()
    assert read_all(frame + bytes(bad), report) == TEXT
    [warning] = report.warnings
    assert "the zstd data is corrupt" in warning.message
    assert f"bytes {len(frame):,}-" in warning.message
    assert report.truncated


@pytest.mark.parametrize(
    "data",
    [
        gzip.compress(TEXT)[:10] + b"\xff" * 64,
        gzip.compress(TEXT)[:6],
        b"\x1f\x8b",
        zstd(TEXT)[:5],
    ],
    ids=["corrupt-first-block", "cut-in-header", "magic-only", "zstd-cut-in-header"],
)
def test_nothing_decodes_raises_even_with_a_report(data: bytes) -> None:
    with pytest.raises(CorruptCompression, match="nothing decompresses from it"):
        read_all(data, ParseReport())


def test_without_a_report_damage_raises_after_the_good_bytes() -> None:
    member = gzip.compress(TEXT)
    reader = decompressing_reader(
        io.BufferedReader(io.BytesIO(member + member[:-100])), sniff_compression(member)
    )
    got = bytearray()

    def read_to_the_end() -> None:
        while chunk := reader.read(65536):
            got.extend(chunk)

    with pytest.raises(CorruptCompression, match="cut off"):
        read_to_the_end()
    assert bytes(got).startswith(TEXT)
    assert len(got) > len(TEXT)


@pytest.mark.parametrize("name", COMPRESSORS)
def test_open_capture_reads_multi_member_files_and_closes_them(name: str, tmp_path: Path) -> None:
    path = tmp_path / "capture"
    path.write_bytes(COMPRESSORS[name](TEXT) + COMPRESSORS[name](b"tail\n"))
    report = ParseReport()
    with open_capture(path, report) as stream:
        assert stream.read() == TEXT + b"tail\n"
    assert stream.closed
    assert report.warnings == []


@pytest.mark.parametrize("name", COMPRESSORS)
def test_a_bomb_comes_out_in_pieces_no_larger_than_asked(name: str) -> None:
    bomb = COMPRESSORS[name](bytes(64 << 20))
    decoder = StreamDecoder(gzip_format() if name == "gzip" else zstd_format())
    decoder.push(bomb)
    decoder.close()
    total = 0
    while piece := decoder.pull(65536):
        assert len(piece) <= 65536
        total += len(piece)
    assert total == 64 << 20
    assert decoder.done
    assert decoder.problem is None
