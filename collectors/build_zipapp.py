#!/usr/bin/env python3
"""Build the collector's one file to copy to a server: `stallscope-collect.pyz`, a zipapp.

    python3 collectors/build_zipapp.py [--output FILE]   # default: collectors/dist/stallscope-collect.pyz

It prints the path it wrote. The file is what `python -m zipapp` makes (a `#!/usr/bin/env python3`
line, then a zip holding the `stallscope_collect` package and, at its root, the package's
`__main__.py`), run as `python3 stallscope-collect.pyz record …` or directly once executable. It is
built the same, byte for byte, from the same sources, wherever and whenever: `zipapp` itself stamps
every member with its file's time and mode (which differ between checkouts), so here the members
get a fixed time and mode, go in sorted order, and are stored uncompressed, since zlib builds (zlib,
zlib-ng) emit different bytes for the same input. Standard library only, Python 3.8 or newer.
"""

from __future__ import annotations

import argparse
import io
import os
import stat
import sys
import tempfile
import zipfile
from pathlib import Path
from typing import Sequence

HERE = Path(__file__).resolve().parent
PACKAGE = HERE / "stallscope_collect"
DEFAULT_OUTPUT = HERE / "dist" / "stallscope-collect.pyz"
SHEBANG = b"#!/usr/bin/env python3\n"
MEMBER_TIME = (1980, 1, 1, 0, 0, 0)
"""The earliest time a zip can hold: no member says when or where it was built."""
MEMBER_MODE = stat.S_IFREG | 0o644


def members(package: Path = PACKAGE) -> list[tuple[str, bytes]]:
    """(name in the archive, content) of every module, sorted by name; `__main__.py` at the root is
    the package's own, so the zipapp and `python3 -m stallscope_collect` start the same way."""
    found = [
        (path.relative_to(package.parent).as_posix(), path.read_bytes())
        for path in package.rglob("*.py")
        if "__pycache__" not in path.parts
    ]
    found.append(("__main__.py", (package / "__main__.py").read_bytes()))
    return sorted(found)


def archive(package: Path = PACKAGE) -> bytes:
    """The zipapp's bytes: the shebang line, then the zip."""
    buffer = io.BytesIO()
    buffer.write(SHEBANG)
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_STORED) as zf:
        for name, content in members(package):
            info = zipfile.ZipInfo(name, date_time=MEMBER_TIME)
            info.create_system = 3  # Unix, as on any host that builds it, so the mode bits below count
            info.external_attr = MEMBER_MODE << 16
            info.compress_type = zipfile.ZIP_STORED
            zf.writestr(info, content)
    return buffer.getvalue()


def build(output: Path = DEFAULT_OUTPUT, package: Path = PACKAGE) -> Path:
    """Write the zipapp to `output` (executable, replaced whole: a reader never sees half of it)."""
    output.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=str(output.parent))
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(archive(package))
        os.chmod(tmp, 0o755)
        os.replace(tmp, str(output))
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    return output


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Build stallscope-collect.pyz, the collector as one file.")
    parser.add_argument(
        "--output",
        type=Path,
        default=DEFAULT_OUTPUT,
        metavar="FILE",
        help=f"where to write it (default: {DEFAULT_OUTPUT})",
    )
    args = parser.parse_args(argv)
    try:
        written = build(args.output)
    except OSError as exc:
        print(f"error: cannot write {args.output}: {exc}", file=sys.stderr)
        return 1
    print(written)
    return 0


if __name__ == "__main__":
    sys.exit(main())
