"""The one file users copy: built reproducibly from the package, complete, and runnable on its own."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pytest

import build_zipapp
from stallscope_collect import COLLECTOR

from .conftest import find_python, python38, zipapp

SOURCES = sorted(
    path.relative_to(build_zipapp.PACKAGE.parent).as_posix()
    for path in build_zipapp.PACKAGE.rglob("*.py")
    if "__pycache__" not in path.parts
)

# Imports every module of the archive given as argv[1] (but __main__, which would run the command
# line) and fails unless each came from it.
IMPORT_ALL = """
import importlib, sys, zipfile
archive = sys.argv[1]
sys.path.insert(0, archive)
for name in zipfile.ZipFile(archive).namelist():
    if name.startswith("stallscope_collect/") and not name.endswith("/__main__.py"):
        module = name[: -len(".py")].replace("/", ".").replace(".__init__", "")
        loaded = importlib.import_module(module)
        assert loaded.__file__.startswith(archive), (module, loaded.__file__)
print("imported")
"""


def copy_of_the_package(directory: Path) -> Path:
    package = directory / "stallscope_collect"
    shutil.copytree(build_zipapp.PACKAGE, package, ignore=shutil.ignore_patterns("__pycache__"))
    return package


def test_builds_are_byte_identical_whatever_the_files_times_modes_and_caches(tmp_path: Path) -> None:
    plain = copy_of_the_package(tmp_path / "plain")
    touched = copy_of_the_package(tmp_path / "touched")
    later = time.time() + 86400
    for number, path in enumerate(sorted(touched.rglob("*.py"))):
        os.utime(path, (later + number, later + number))
        path.chmod(0o600 if number % 2 else 0o775)
    (touched / "__pycache__").mkdir()
    (touched / "__pycache__" / "cli.cpython-311.pyc").write_bytes(b"not a module")

    first = build_zipapp.build(tmp_path / "a" / "stallscope-collect.pyz", plain)
    second = build_zipapp.build(tmp_path / "b" / "stallscope-collect.pyz", touched)
    assert first.read_bytes() == second.read_bytes()
    assert first.read_bytes() == zipapp().read_bytes(), "the tree's own sources build the same file"
    # Not just equal by accident of an empty archive: the sources are in it.
    assert len(first.read_bytes()) > sum(len(p.read_bytes()) for p in plain.rglob("*.py"))


def test_it_holds_the_package_and_starts_like_python_m() -> None:
    shipped = zipapp()
    data = shipped.read_bytes()
    assert data.startswith(b"#!/usr/bin/env python3\n")
    assert os.stat(shipped).st_mode & 0o111 == 0o111
    with zipfile.ZipFile(shipped) as zf:
        assert zf.namelist() == ["__main__.py", *SOURCES]
        for name in SOURCES:
            assert zf.read(name) == (build_zipapp.PACKAGE.parent / name).read_bytes(), name
        assert zf.read("__main__.py") == zf.read("stallscope_collect/__main__.py")
        assert {info.date_time for info in zf.infolist()} == {build_zipapp.MEMBER_TIME}


def test_it_runs_alone_on_the_standard_library(tmp_path: Path) -> None:
    # Copied away from the sources, with no site-packages (-S) and no environment (-I): what it
    # imports can only come from itself and the standard library.
    alone = tmp_path / "elsewhere" / "stallscope-collect.pyz"
    alone.parent.mkdir()
    shutil.copy2(zipapp(), alone)
    isolated = [sys.executable, "-I", "-S"]
    result = subprocess.run(
        [*isolated, str(alone), "--version"], cwd=tmp_path, capture_output=True, text=True, check=False
    )
    assert (result.returncode, result.stdout.strip()) == (0, COLLECTOR), result.stderr
    result = subprocess.run(
        [*isolated, "-c", IMPORT_ALL, str(alone)], cwd=tmp_path, capture_output=True, text=True, check=False
    )
    assert (result.returncode, result.stdout.strip()) == (0, "imported"), result.stderr


def test_it_runs_by_its_shebang(tmp_path: Path) -> None:
    python3 = shutil.which("python3")
    if python3 is None:
        pytest.skip("no python3 on PATH for the #!/usr/bin/env python3 line to find")
    probe = subprocess.run(
        [python3, "-c", "import sys; print(sys.version_info >= (3, 8))"],
        capture_output=True,
        text=True,
        check=False,
    )
    if probe.stdout.strip() != "True":
        pytest.skip(f"python3 on PATH ({python3}) is older than 3.8")
    result = subprocess.run([str(zipapp()), "--version"], capture_output=True, text=True, check=False)
    assert (result.returncode, result.stdout.strip()) == (0, COLLECTOR), result.stderr


def test_every_module_imports_on_python_38(tmp_path: Path) -> None:
    """Module-level code that needs a newer Python (`list[int]` in an alias, say) fails here; what
    runs later is exercised under 3.8 by test_cli's test_runs_on_python_38."""
    python = python38()
    if python is None:
        pytest.skip("no Python 3.8 interpreter found (set COLLECTOR_TEST_PYTHON)")
    result = subprocess.run(
        [python, "-I", "-S", "-W", "error", "-c", IMPORT_ALL, str(zipapp())],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert (result.returncode, result.stdout.strip()) == (0, "imported"), result.stderr


def test_an_older_python_is_told_what_it_lacks() -> None:
    found = [p for p in (find_python(3, 7), find_python(3, 6), find_python(2, 7)) if p is not None]
    if not found:
        pytest.skip("no Python 3.7, 3.6 or 2.7 interpreter found (python3.7 on PATH or pyenv's)")
    for python in found:
        result = subprocess.run(
            [python, str(zipapp()), "--version"], capture_output=True, text=True, check=False
        )
        assert result.returncode == 1, (python, result.stdout, result.stderr)
        message = result.stderr
        assert "stallscope-collect needs Python 3.8 or newer; this is" in message, (python, message)
        assert "Traceback" not in message


def test_the_build_script_prints_what_it_wrote_and_says_why_it_cannot(tmp_path: Path) -> None:
    script = build_zipapp.HERE / "build_zipapp.py"
    output = tmp_path / "dist" / "stallscope-collect.pyz"
    result = subprocess.run(
        [sys.executable, str(script), "--output", str(output)], capture_output=True, text=True, check=False
    )
    assert (result.returncode, result.stdout.strip()) == (0, str(output)), result.stderr
    assert output.read_bytes() == zipapp().read_bytes()
    assert [p.name for p in output.parent.iterdir()] == [output.name], "no temporary file left behind"

    blocked = tmp_path / "a-file"
    blocked.write_text("")
    result = subprocess.run(
        [sys.executable, str(script), "--output", str(blocked / "stallscope-collect.pyz")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 1
    assert result.stderr.startswith(f"error: cannot write {blocked / 'stallscope-collect.pyz'}:")
    assert "Traceback" not in result.stderr


def test_the_package_runs_as_python_m_from_the_sources() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "stallscope_collect", "--version"],
        cwd=build_zipapp.HERE,
        capture_output=True,
        text=True,
        check=False,
    )
    assert (result.returncode, result.stdout.strip()) == (0, COLLECTOR), result.stderr
