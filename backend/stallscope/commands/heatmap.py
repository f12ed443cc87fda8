"""`stallscope heatmap`: placeholder until the feature lands."""

from __future__ import annotations

import argparse
import sys

HELP = "heatmap (not built yet)"
DESCRIPTION = HELP


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare the command's arguments on its sub-parser."""


def run(args: argparse.Namespace) -> int:
    print("stallscope heatmap: not built yet", file=sys.stderr)
    return 2
