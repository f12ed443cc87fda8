"""Fuzz the compression layer: the upload meter and the parse-time reader, on any bytes.

The inputs are random bytes, and real gzip and zstd streams of corpus slices that were cut, flipped,
spliced, concatenated and padded. The only outcomes allowed: the meter measures the upload, or
refuses it with `CorruptCompression` or `UploadTooLarge`; the reader gives bytes, with any damage
reported on the parse report, or raises `CorruptCompression` when nothing at all decodes. Both must
agree (what the meter counts is what the reader gives), and every example must end within the
deadline, which is what catches a decoder that spins.

CI runs a fixed, derandomized budget; `STALLSCOPE_FUZZ_EXAMPLES=N` runs N examples per property with
fresh randomness. A failing input is kept under `crashers/compression/` and replayed by
`test_compression_crashers_stay_fixed`.
"""

from __future__ import annotations

import functools
import gzip
import io
import tempfile
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import zstandard
from hypothesis import event, given
from hypothesis import strategies as st

from stallscope.blobs.local import LocalBlobStore
from stallscope.blobs.metering import CorruptCompression, UploadTooLarge
from stallscope.ingest.model import ParseReport
from stallscope.kit.compression import decompressing_reader, sniff_compression
from tests.fixtures.corpus import corpus_dir, corpus_missing
from tests.fuzz.budget import fuzz_settings

CI_EXAMPLES = 200
LIMIT = 8 << 20
"""The meter's limit and the most the reader is read for: past it a bomb has made its point."""
CRASHERS = Path(__file__).parent / "crashers" / "compression"
HANG_TIMEOUT_S = 240
"""A spinning decoder never returns to Hypothesis, so its deadline cannot fire: this ends it."""

FUZZ = fuzz_settings(CI_EXAMPLES, deadline_s=5)
"""A deadline far above an example's usual few milliseconds, even on a loaded machine."""

CORPUS_SLICES = (
    "perf-script/inferno/collapse-perf/go-stacks.txt",
    "perf-script/flamegraph/perf-funcab-cmd-01.txt",
    "captures/perf_trace.mmap_fsync_futex.txt.gz",
)
SLICE_BYTES = 4096
FALLBACK_SEED = b"app 101 [000] 100.000001: 1001 cpu-clock:\n\t    1234 leaf (/usr/bin/app)\n\n"
SKIPPABLE_FRAME = b"\x50\x2a\x4d\x18\x04\x00\x00\x00note"
MAGIC_BYTES = 4


@functools.cache
def seeds() -> tuple[bytes, ...]:
    """Slices of real captures (and one written here, so the test runs without the corpus too)."""
    found = [FALLBACK_SEED]
    if corpus_missing() is None:
        for relative in CORPUS_SLICES:
            path = corpus_dir() / relative
            if path.is_file():
                opener = gzip.open if path.suffix == ".gz" else open
                with opener(path, "rb") as file:
                    found.append(file.read(SLICE_BYTES))
    return tuple(found)


def _compress(kind: str, data: bytes, level: int) -> bytes:
    if kind == "gzip":
        return gzip.compress(data, compresslevel=level)
    return zstandard.ZstdCompressor(level=level, write_checksum=level % 2 == 0).compress(data)


@st.composite
def whole_streams(draw: st.DrawFn) -> tuple[bytes, bytes]:
    """(stream, what it decompresses to): members of one kind, some decoding past 1 MiB each."""
    kind = draw(st.sampled_from(("gzip", "zstd")))
    parts: list[bytes] = []
    text = b""
    for _ in range(draw(st.integers(1, 3))):
        seed = draw(st.sampled_from(seeds()))
        piece = seed[: draw(st.integers(0, len(seed)))] * draw(st.sampled_from((1, 3, 400)))
        parts.append(_compress(kind, piece, draw(st.integers(1, 9))))
        text += piece
        if kind == "zstd" and draw(st.booleans()):
            parts.append(SKIPPABLE_FRAME)
    return b"".join(parts), text


@st.composite
def damaged_streams(draw: st.DrawFn) -> bytes:
    """A whole stream put through what a capture's bytes meet on the way: cuts, flips, splices."""
    data = bytearray(draw(whole_streams())[0])
    for _ in range(draw(st.integers(1, 4))):
        spare_magic = draw(st.integers(0, 9)) > 0  # damage past the magic, mostly: else it is plain
        at = draw(st.integers(min(MAGIC_BYTES, len(data)) if spare_magic else 0, len(data)))
        match draw(st.sampled_from(("cut", "flip", "insert", "delete", "append", "pad"))):
            case "cut":
                del data[at:]
            case "flip" if at < len(data):
                data[at] ^= draw(st.integers(1, 255))
            case "insert":
                data[at:at] = draw(st.binary(min_size=1, max_size=16))
            case "delete":
                del data[at : at + draw(st.integers(1, 64))]
            case "append":
                data += draw(st.one_of(st.binary(max_size=64), whole_streams().map(lambda s: s[0])))
            case "pad":
                data += bytes(draw(st.integers(1, 600)))
    if draw(st.booleans()):  # and, as often as not, cut off at the end: a capture killed while writing
        del data[draw(st.integers(min(MAGIC_BYTES, len(data)), len(data))) :]
    return bytes(data)


ARBITRARY = st.one_of(
    st.binary(max_size=2048),
    st.tuples(
        st.sampled_from((b"\x1f\x8b", b"\x1f\x8b\x08", b"\x28\xb5\x2f\xfd")), st.binary(max_size=512)
    ).map(b"".join),
)
"""Random bytes, and random bytes behind a gzip or zstd magic (else they never reach a decoder)."""
CHUNKS = st.sampled_from((1, 3, 4096, 1 << 20))


@dataclass
class Metered:
    size: int | None = None
    refused: Exception | None = None


@dataclass
class Read:
    data: bytes = b""
    report: ParseReport | None = None
    refused: CorruptCompression | None = None
    capped: bool = False
    outcome: str = ""


def meter(root: Path, data: bytes, chunk: int) -> Metered:
    """Upload `data` in `chunk`-byte pieces through the blob store, as the upload route does."""
    writer = LocalBlobStore(root).start_upload(LIMIT)
    try:
        for start in range(0, len(data), chunk):
            writer.write(data[start : start + chunk])
        return Metered(size=writer.commit().size_uncompressed)
    except (CorruptCompression, UploadTooLarge) as exc:
        writer.abort()
        return Metered(refused=exc)
    finally:
        assert not writer.temp_path.exists(), "the temp file outlived the upload"


def read(data: bytes, piece: int) -> Read:
    """Read `data` through the parse-time reader in `piece`-byte reads, as an importer does."""
    report = ParseReport()
    stream = decompressing_reader(io.BufferedReader(io.BytesIO(data)), sniff_compression(data[:4]), report)
    got = bytearray()
    try:
        while chunk := stream.read(piece):
            got += chunk
            if len(got) > LIMIT:
                return Read(bytes(got), report, capped=True)
    except CorruptCompression as exc:
        assert not got, "the reader raised after giving bytes: it must end cleanly and report"
        return Read(refused=exc)
    return Read(bytes(got), report)


def check(root: Path, data: bytes, chunk: int) -> Read:
    """Every promise the meter and the reader make, and that they agree."""
    metered = meter(root, data, chunk)
    got = read(data, max(chunk, 61))
    got.outcome = f"{sniff_compression(data[:4]).value}: {_outcome(metered, got)}"
    if got.refused is not None:
        assert str(got.refused), "a refusal must say why"
        assert isinstance(metered.refused, CorruptCompression), (metered, got)
        return got
    assert got.report is not None
    for warning in got.report.warnings:
        assert warning.message.strip()
        assert 1 <= warning.line <= got.data.count(b"\n") + 1, warning
    if got.capped:
        assert isinstance(metered.refused, UploadTooLarge), metered
        return got
    assert metered.refused is None, (metered.refused, got.report)
    assert metered.size == len(got.data), "the meter counts what the reader gives"
    return got


def fuzzed(root: Path, data: bytes, chunk: int) -> Read:
    """`check`, and what happened counted for `--hypothesis-show-statistics`."""
    got = check(root, data, chunk)
    event(got.outcome)
    return got


def _outcome(metered: Metered, got: Read) -> str:
    """What happened, for `--hypothesis-show-statistics`: are the strategies reaching every branch?"""
    if metered.refused is not None:
        return type(metered.refused).__name__
    warnings = got.report.warnings if got.report else []
    if not warnings:
        return "clean"
    message = warnings[0].message
    return next((kind for kind in ("corrupt", "cut off", "trailing garbage") if kind in message), "other")


@pytest.fixture(scope="module")
def root() -> Iterator[Path]:
    with tempfile.TemporaryDirectory(prefix="compression-fuzz-") as name:
        yield Path(name)


@pytest.mark.timeout(HANG_TIMEOUT_S)
@FUZZ
@given(stream=whole_streams(), chunk=CHUNKS)
def test_whole_streams_decode_to_their_text_without_a_word(
    root: Path, stream: tuple[bytes, bytes], chunk: int
) -> None:
    data, text = stream
    got = fuzzed(root, data, chunk)
    assert got.data == text
    assert got.report is not None
    assert got.report.warnings == []


@pytest.mark.timeout(HANG_TIMEOUT_S)
@FUZZ
@given(data=damaged_streams(), chunk=CHUNKS)
def test_damaged_streams_give_bytes_or_a_clean_refusal(root: Path, data: bytes, chunk: int) -> None:
    fuzzed(root, data, chunk)


@pytest.mark.timeout(HANG_TIMEOUT_S)
@FUZZ
@given(data=ARBITRARY, chunk=CHUNKS)
def test_arbitrary_bytes_give_bytes_or_a_clean_refusal(root: Path, data: bytes, chunk: int) -> None:
    fuzzed(root, data, chunk)


def crashers() -> list[Path]:
    """Inputs that once failed, named for what they are: `two-members-past-1mib.gz` and
    `member-past-1mib-then-garbage.gz` spun the upload meter forever (it fed a finished member)."""
    return sorted(p for p in CRASHERS.iterdir() if p.is_file())


@pytest.mark.timeout(HANG_TIMEOUT_S)
@pytest.mark.parametrize("path", crashers(), ids=lambda p: p.name)
@pytest.mark.parametrize("chunk", [1 << 20, 4096])
def test_compression_crashers_stay_fixed(root: Path, path: Path, chunk: int) -> None:
    check(root, path.read_bytes(), chunk)


def test_the_crashers_are_what_they_claim() -> None:
    """The kept inputs still exercise what once failed (a multi-member gzip past 1 MiB a member)."""
    data = (CRASHERS / "two-members-past-1mib.gz").read_bytes()
    member = zlib.decompressobj(wbits=31)
    assert len(member.decompress(data)) > 1 << 20
    assert member.eof
    assert member.unused_data.startswith(b"\x1f\x8b")
