"""`stallscope diff`: placeholder until the feature lands."""

from __future__ import annotations

import argparse
import sys

HELP = "diff (not built yet)"
DESCRIPTION = HELP


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare the command's arguments on its sub-parser."""


def run(args: argparse.Namespace) -> int:
    print("stallscope diff: not built yet", file=sys.stderr)
    return 2
