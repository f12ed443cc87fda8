"""Hypothesis strategies for importer input: random bytes, token soup, and mutated real captures.

Mutations are what a damaged capture goes through (a cut upload, a flipped bit, an editor's CRLF,
two files pasted together) plus what a hostile or broken writer prints (NUL and control bytes,
invalid UTF-8, numbers no parser expects, timestamps before 1970 or after 9999, very long lines).
Every choice is drawn from Hypothesis, so a failing input shrinks to a small one.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from hypothesis import strategies as st

from tests.fuzz.seeds import Seed

Mutation = Callable[[st.DrawFn, bytes, Sequence[Seed]], bytes]

ABSURD_NUMBERS = (
    b"0",
    b"-0",
    b"-1",
    b"NaN",
    b"nan",
    b"-nan",
    b"inf",
    b"+Inf",
    b"-inf",
    b"Infinity",
    b"-Infinity",
    b"1e308",
    b"1e309",
    b"-1e309",
    b"1e-400",
    b"4.9e-324",
    b"9" * 25,
    b"9" * 400,
    b"9" * 5000,  # past Python's 4300-digit limit for int()
    b"-9223372036854775809",
    b"18446744073709551616",
    b"253402300800",  # 10000-01-01, one second past datetime's range
    b"-62135596801",  # before year 1
    b"99999999999.999999999",
    b"1.5e18",
    b"0x1f",
    b"1_000",
    b"+5",
    b"5.",
    b".5",
    b"1e",
    b"--1",
    b"\xd9\xa3",  # ARABIC-INDIC DIGIT THREE: int() and float() accept it
    b"\xef\xbc\x91\xef\xbc\x92",  # FULLWIDTH 1 2
)
"""Numbers (and things that look like them) at the edges of what int(), float() and dates take."""

ODD_BYTES = (
    b"\x00",
    b"\x01",
    b"\x1b[31m",
    b"\x7f",
    b"\x0b",
    b"\x0c",
    b"\r",
    b"\r\n",
    b"\t",
    b"\xff",
    b"\xfe\xff",
    b"\xc3",
    b"\xc3\x28",
    b"\xed\xa0\x80",  # an encoded surrogate
    b"\xf4\x90\x80\x80",  # past U+10FFFF
    b"\xe2\x80\xa8",  # LINE SEPARATOR, a line break to str.splitlines
    b"\xc2\x85",  # NEXT LINE
    b"\xef\xbb\xbf",  # a byte-order mark
)
"""Control bytes, line breaks other than `\\n`, and invalid UTF-8."""

PUNCTUATION = tuple(c.encode() for c in "{}[]():;,.=\"'#<>|/\\-+*@!$%&?~` \n")

_NUMBER = re.compile(rb"[-+]?[0-9]+(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?")
_TOKEN = re.compile(rb"[A-Za-z_][A-Za-z0-9_.]*|[0-9]+")


def _position(draw: st.DrawFn, data: bytes) -> int:
    return draw(st.integers(0, len(data)))


def flip_byte(draw: st.DrawFn, data: bytes, seeds: Sequence[Seed]) -> bytes:
    if not data:
        return data
    at = draw(st.integers(0, len(data) - 1))
    return data[:at] + bytes([data[at] ^ draw(st.integers(1, 255))]) + data[at + 1 :]


def insert_bytes(draw: st.DrawFn, data: bytes, seeds: Sequence[Seed]) -> bytes:
    at = _position(draw, data)
    piece = draw(
        st.one_of(
            st.sampled_from(ODD_BYTES),
            st.sampled_from(PUNCTUATION),
            st.sampled_from(ABSURD_NUMBERS),
            st.binary(min_size=1, max_size=16),
        )
    )
    return data[:at] + piece + data[at:]


def delete_bytes(draw: st.DrawFn, data: bytes, seeds: Sequence[Seed]) -> bytes:
    at = _position(draw, data)
    return data[:at] + data[at + draw(st.integers(1, 64)) :]


def truncate(draw: st.DrawFn, data: bytes, seeds: Sequence[Seed]) -> bytes:
    return data[: _position(draw, data)]


def _lines(data: bytes) -> list[bytes]:
    return data.split(b"\n")


def duplicate_line(draw: st.DrawFn, data: bytes, seeds: Sequence[Seed]) -> bytes:
    lines = _lines(data)
    at = draw(st.integers(0, len(lines) - 1))
    copies = draw(st.sampled_from((1, 2, 50)))
    return b"\n".join(lines[: at + 1] + [lines[at]] * copies + lines[at + 1 :])


def delete_line(draw: st.DrawFn, data: bytes, seeds: Sequence[Seed]) -> bytes:
    lines = _lines(data)
    del lines[draw(st.integers(0, len(lines) - 1))]
    return b"\n".join(lines)


def swap_lines(draw: st.DrawFn, data: bytes, seeds: Sequence[Seed]) -> bytes:
    lines = _lines(data)
    first, second = draw(st.integers(0, len(lines) - 1)), draw(st.integers(0, len(lines) - 1))
    lines[first], lines[second] = lines[second], lines[first]
    return b"\n".join(lines)


def shuffle_lines(draw: st.DrawFn, data: bytes, seeds: Sequence[Seed]) -> bytes:
    return b"\n".join(draw(st.permutations(_lines(data))))


def replace_number(draw: st.DrawFn, data: bytes, seeds: Sequence[Seed]) -> bytes:
    """One number of the text replaced by an absurd one: huge, NaN, infinite, negative, not a number."""
    spans = [m.span() for m in _NUMBER.finditer(data)]
    if not spans:
        return data
    start, end = draw(st.sampled_from(spans))
    return data[:start] + draw(st.sampled_from(ABSURD_NUMBERS)) + data[end:]


def replace_token(draw: st.DrawFn, data: bytes, seeds: Sequence[Seed]) -> bytes:
    """One word or number replaced by a word of another capture (a header word in a data row, ...)."""
    spans = [m.span() for m in _TOKEN.finditer(data)]
    words: list[bytes] = _TOKEN.findall(draw(st.sampled_from(seeds)).data)
    if not spans or not words:
        return data
    start, end = draw(st.sampled_from(spans))
    return data[:start] + draw(st.sampled_from(words)) + data[end:]


def long_line(draw: st.DrawFn, data: bytes, seeds: Sequence[Seed]) -> bytes:
    """A line of tens or hundreds of kilobytes, past the 64 KiB a format is sniffed from."""
    lines = _lines(data)
    at = draw(st.integers(0, len(lines) - 1))
    size = draw(st.sampled_from((4 << 10, 70 << 10, 300 << 10)))
    filler = lines[at] or b"x"
    lines[at] = (filler * (size // len(filler) + 1))[:size]
    return b"\n".join(lines)


def change_line_endings(draw: st.DrawFn, data: bytes, seeds: Sequence[Seed]) -> bytes:
    return data.replace(b"\n", draw(st.sampled_from((b"\r\n", b"\r", b"\n\n", b"\x00\n"))))


def splice(draw: st.DrawFn, data: bytes, seeds: Sequence[Seed]) -> bytes:
    """A piece of another capture pasted in: two files concatenated, or a paste into the wrong file."""
    other = draw(st.sampled_from(seeds)).data
    start = draw(st.integers(0, len(other)))
    piece = other[start : start + draw(st.integers(0, 2048))]
    at = _position(draw, data)
    return data[:at] + piece + data[at:]


MUTATIONS: tuple[Mutation, ...] = (
    flip_byte,
    insert_bytes,
    delete_bytes,
    truncate,
    duplicate_line,
    delete_line,
    swap_lines,
    shuffle_lines,
    replace_number,
    replace_token,
    long_line,
    change_line_endings,
    splice,
)


@st.composite
def mutated(draw: st.DrawFn, seeds: Sequence[Seed], most: int = 4) -> bytes:
    """A seed after one to `most` mutations."""
    data = draw(st.sampled_from(seeds)).data
    for mutation in draw(st.lists(st.sampled_from(MUTATIONS), min_size=1, max_size=most)):
        data = mutation(draw, data, seeds)
    return data


def token_soup(seeds: Sequence[Seed]) -> st.SearchStrategy[bytes]:
    """Lines of the seeds' own words, absurd numbers and punctuation, in any order: near a format's
    grammar without being any of it."""
    words = sorted({w for seed in seeds for w in _TOKEN.findall(seed.data)}) or [b"x"]
    token = st.one_of(st.sampled_from(words), st.sampled_from(ABSURD_NUMBERS), st.sampled_from(PUNCTUATION))
    lines = st.lists(st.lists(token, max_size=24).map(b" ".join), min_size=1, max_size=30).map(b"\n".join)
    return st.tuples(lines, st.sampled_from((b"\n", b""))).map(b"".join)


def importer_input(seeds: Sequence[Seed]) -> st.SearchStrategy[bytes]:
    """What an importer is fuzzed with: mostly its own seeds mutated, some soup, some random bytes."""
    return st.one_of(
        mutated(seeds),
        token_soup(seeds),
        st.binary(max_size=512),
        st.text(max_size=256).map(str.encode),
    )
