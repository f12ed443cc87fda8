"""The offline commands on files they cannot use: one line naming the file and why, exit 1, no traceback.

And on a damaged compressed file they can partly use: what decoded is used, and the damage is
printed like any other parse warning. Each case runs the installed command in a subprocess, as a
person at a terminal would.
"""

from __future__ import annotations

import gzip
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
import zstandard

SAMPLE = b"""app 101/101 [000] 100.000001: 1001001 cpu-clock:
\t    1234 leaf (/usr/bin/app)
\t    5678 main (/usr/bin/app)

app 101/101 [000] 100.001002: 1001001 cpu-clock:
\t    1234 leaf (/usr/bin/app)
\t    5678 main (/usr/bin/app)

"""
CAPTURE = SAMPLE * 20_000
"""Over 2 MiB once decompressed, so a cut in its second gzip member leaves many samples before it."""
COMMANDS = ("inspect", "collapse", "threads", "heatmap", "diff")
RUN_TIMEOUT_S = 120


@dataclass(frozen=True, slots=True)
class BadFile:
    name: str
    reason: str
    """What the one line must say (besides the file name)."""
    make: Callable[[Path], object]


def _write(data: bytes) -> Callable[[Path], object]:
    return lambda path: path.write_bytes(data)


BAD_FILES = (
    BadFile("missing.txt.gz", "No such file or directory", lambda path: None),
    BadFile("a-directory", "Is a directory", lambda path: path.mkdir()),
    BadFile("empty.txt", "the file is empty", _write(b"")),
    BadFile(
        "corrupt.txt.gz", "the gzip data is corrupt", _write(gzip.compress(CAPTURE)[:10] + b"\xff" * 200)
    ),
    BadFile("header-only.txt.gz", "the gzip data is cut off at byte 6", _write(gzip.compress(CAPTURE)[:6])),
    BadFile("corrupt.txt.zst", "the zstd data is corrupt", _write(b"\x28\xb5\x2f\xfd" + b"\xff" * 64)),
    BadFile("notes.txt", "the file starts with 'Dear on-call,'", _write(b"Dear on-call,\nthe db is slow.\n")),
    BadFile("junk.bin", "binary data", _write(bytes(range(256)) * 8)),
)


def stallscope(*args: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "STALLSCOPE_DEBUG"}
    return subprocess.run(
        [*_privileges(), sys.executable, "-m", "stallscope", *map(str, args)],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=RUN_TIMEOUT_S,
        check=False,
    )


def _privileges() -> list[str]:
    """Run as root without the right to read any file, so `Permission denied` is real (setpriv)."""
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        return []
    caps = "-dac_override,-dac_read_search"
    return [setpriv, f"--inh-caps={caps}", f"--bounding-set={caps}"]


def command_line(command: str, target: Path, good: str) -> list[str | Path]:
    if command == "diff":
        return [command, target, good]
    return [command, target]


def assert_one_line(result: subprocess.CompletedProcess[str], target: Path, reason: str) -> None:
    assert "Traceback" not in result.stderr, result.stderr
    assert result.returncode == 1, (result.returncode, result.stderr)
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, result.stderr
    [line] = lines
    assert line.startswith("stallscope"), line
    assert f" {target.name}: " in line, line
    assert reason in line, line
    assert result.stdout == "", result.stdout


@pytest.fixture
def good(tmp_path: Path) -> Path:
    path = tmp_path / "good.txt"
    path.write_bytes(SAMPLE)
    return path


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("bad", BAD_FILES, ids=lambda bad: bad.name)
def test_a_file_the_command_cannot_use_gets_one_line_and_exit_1(
    tmp_path: Path, good: Path, command: str, bad: BadFile
) -> None:
    target = tmp_path / bad.name
    bad.make(target)
    result = stallscope(*command_line(command, target.relative_to(tmp_path), good.name), cwd=tmp_path)
    assert_one_line(result, target, bad.reason)


@pytest.mark.parametrize("command", COMMANDS)
def test_an_unreadable_file_gets_one_line_and_exit_1(tmp_path: Path, good: Path, command: str) -> None:
    if os.geteuid() == 0 and shutil.which("setpriv") is None:
        pytest.skip("running as root, which reads any file, and setpriv is not there to drop that right")
    target = tmp_path / "secret.txt"
    target.write_bytes(SAMPLE)
    target.chmod(0)
    result = stallscope(*command_line(command, Path(target.name), good.name), cwd=tmp_path)
    assert_one_line(result, target, "Permission denied")


@pytest.fixture
def cut(tmp_path: Path) -> tuple[Path, int]:
    """Two gzip members, the second cut half-way: (file, the byte the cut is at)."""
    member = gzip.compress(CAPTURE)
    data = member + member[: len(member) // 2]
    path = tmp_path / "cut.txt.gz"
    path.write_bytes(data)
    return path, len(data)


def test_inspect_reports_a_cut_stream_and_describes_what_came_before(cut: tuple[Path, int]) -> None:
    path, at = cut
    result = stallscope("inspect", path.name, cwd=path.parent)
    assert result.returncode == 0, result.stderr
    assert "truncated:   yes" in result.stdout
    assert f"the gzip data is cut off at byte {at:,}" in result.stdout
    samples = int(
        next(line for line in result.stdout.splitlines() if line.startswith("samples:"))
        .split()[1]
        .replace(",", "")
    )
    assert CAPTURE.count(b"cpu-clock:") < samples < 2 * CAPTURE.count(b"cpu-clock:")


@pytest.mark.parametrize("command", ["collapse", "threads", "heatmap", "diff"])
def test_the_other_commands_print_the_cut_as_a_warning(
    cut: tuple[Path, int], good: Path, command: str
) -> None:
    path, at = cut
    result = stallscope(*command_line(command, Path(path.name), good.name), cwd=path.parent)
    assert "Traceback" not in result.stderr
    assert f"the gzip data is cut off at byte {at:,}" in result.stderr, result.stderr
    if command != "threads":  # a CPU capture has no thread states, which threads says with exit 1
        assert result.returncode == 0, result.stderr
        assert result.stdout


def test_a_trailing_zstd_frame_is_read_and_garbage_after_it_reported(tmp_path: Path) -> None:
    frame = zstandard.ZstdCompressor().compress(SAMPLE)
    path = tmp_path / "frames.txt.zst"
    path.write_bytes(frame + frame + b"garbage")
    result = stallscope("collapse", path.name, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout == "app;main;leaf 4004004\n"  # four samples of 1001001 ns
    assert f"from byte {2 * len(frame):,} on" in result.stderr
    assert "trailing garbage" in result.stderr
