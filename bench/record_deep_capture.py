"""Record the real deep capture the speed benchmarks run on: `perf record -F 999 -a -g` during a compile.

    python bench/record_deep_capture.py                   # 60 s, into bench/captures/deep-compile/
    python bench/record_deep_capture.py --seconds 30 --out DIR

Two compiles keep both cores busy, over and over until the time is up: the TypeScript type check
of this project's own front end (`tsc --noEmit`, run by Node with `--perf-basic-prof` so perf names
its JIT frames; V8 keeps frame pointers, and the checker's recursion reaches perf's 127-frame limit),
and a C++ build of GoogleTest's sources as Debian ships them in /usr/src/googletest (make, cc1plus,
the assembler: thousands of short stacks). That is the shape of a real system-wide capture: deep
stacks that share little beyond their first frames, unlike a small file repeated.

Writes `cpu.perf.txt.gz` (default `perf script` output) and `PROVENANCE` (commands, machine, kernel,
perf version, sample count, times) beside it. Needs perf and permission to sample every CPU
(`kernel.perf_event_paranoid` <= 0, or root).
"""

from __future__ import annotations

import argparse
import gzip
import os
import platform
import shutil
import subprocess
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path

BENCH = Path(__file__).resolve().parent
DEFAULT_OUT = BENCH / "captures" / "deep-compile"
SOURCES = Path("/usr/src/googletest")
FRONTEND = BENCH.parent / "frontend"
CHECKOUT_AS = b"/stallscope/"
"""What the checkout's own path is written as in the capture (JIT frames name the type checker's
source files): the capture should not depend on, nor tell, where the project was checked out."""


TYPE_CHECK = [
    "node",
    "--perf-basic-prof",
    "node_modules/typescript/bin/tsc",
    "--noEmit",
    "-p",
    "tsconfig.app.json",
]
CPP_BUILD = ["make", "-j", "1"]


def _repeat(command: list[str], cwd: Path, stop_at: float, between: list[str] | None = None) -> int:
    """Run `command` again and again until `stop_at` (the last run is stopped there); runs started."""
    runs = 0
    while time.monotonic() < stop_at:
        runs += 1
        run = subprocess.Popen(command, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        while run.poll() is None:
            if time.monotonic() >= stop_at:
                run.terminate()
                run.wait()
                return runs
            time.sleep(0.2)
        if between:
            subprocess.run(between, cwd=cwd, stdout=subprocess.DEVNULL, check=False)
    return runs


def _compile_until(build_dir: Path, stop_at: float) -> tuple[int, int]:
    """The two compiles side by side until `stop_at`: (type checks, C++ builds) started."""
    subprocess.run(
        ["cmake", "-G", "Unix Makefiles", str(SOURCES)],
        cwd=build_dir,
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    with ThreadPoolExecutor(2) as pool:
        checks = pool.submit(_repeat, TYPE_CHECK, FRONTEND, stop_at)
        builds = pool.submit(_repeat, CPP_BUILD, build_dir, stop_at, ["make", "clean"])
        return checks.result(), builds.result()


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=int, default=60)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args()
    if not SOURCES.is_dir():
        raise SystemExit(f"{SOURCES} is missing: install Debian's googletest package (the compile workload)")
    if not (FRONTEND / "node_modules" / "typescript").is_dir():
        raise SystemExit(f"{FRONTEND}/node_modules is missing: run `npm ci` there first")
    if shutil.which("perf") is None:
        raise SystemExit("perf is missing: install Debian's linux-perf")
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="deep-capture-") as tmp:
        work = Path(tmp)
        data = work / "perf.data"
        record = [
            "perf",
            "record",
            "-F",
            "999",
            "-a",
            "-g",
            "-o",
            str(data),
            "--",
            "sleep",
            str(args.seconds),
        ]
        started = datetime.now(UTC)
        perf = subprocess.Popen(record, stderr=subprocess.PIPE, text=True)
        time.sleep(1)  # perf is sampling before the workload starts
        (work / "build").mkdir()
        checks, builds = _compile_until(work / "build", time.monotonic() + args.seconds - 2)
        _, record_log = perf.communicate()
        if perf.returncode != 0:
            raise SystemExit(f"perf record failed:\n{record_log}")
        capture = args.out / "cpu.perf.txt.gz"
        script = subprocess.Popen(
            ["perf", "script", "-i", str(data)], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
        )
        assert script.stdout is not None
        raw_bytes = samples = 0
        checkout = str(BENCH.parent).encode() + b"/"
        with gzip.open(capture, "wb", compresslevel=9) as out:
            for line in script.stdout:
                line = line.replace(checkout, CHECKOUT_AS)
                raw_bytes += len(line)
                if line[:1] not in (b"\t", b" ", b"\n"):
                    samples += 1
                out.write(line)
        if script.wait() != 0:
            raise SystemExit("perf script failed")
        for jit_map in Path("/tmp").glob("perf-*.map"):  # written by --perf-basic-prof, read by perf script
            jit_map.unlink(missing_ok=True)
    provenance = f"""\
cpu.perf.txt.gz: recorded by bench/record_deep_capture.py

recorded:        {started.isoformat(timespec="seconds")}
machine:         {os.cpu_count()}-CPU {platform.machine()}, Debian
kernel:          {platform.release()}
perf:            {subprocess.run(["perf", "--version"], capture_output=True, text=True).stdout.strip()}
record:          {" ".join(record[:-5])} -- sleep {args.seconds}
workload:        side by side for {args.seconds} s: `{" ".join(TYPE_CHECK)}` in the
                 project's frontend/ ({checks} runs), and `{" ".join(CPP_BUILD)}` of {SOURCES}
                 (GoogleTest and GoogleMock; {builds} builds, `make clean` between); whatever else
                 the machine ran is in it too
script:          perf script (default fields), the checkout's path written as {CHECKOUT_AS.decode()}, gzip -9
samples:         {samples:,}
perf script:     {raw_bytes:,} bytes uncompressed
perf record log: {record_log.strip().replace(chr(10), " | ")}
"""
    (args.out / "PROVENANCE").write_text(provenance)
    print(provenance, end="")


if __name__ == "__main__":
    main()
