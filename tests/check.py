#!/usr/bin/env python3
"""Run one of make test's host checks: TAP on stdout, exit status 1 when a
check fails, 2 on bad usage.

usage: tests/check.py NAME [ARGS...]   (tests/check.py NAME --help for its
ARGS; the checks are the modules of tests/hosttools/checks/)
"""
import importlib
import sys

from hosttools.checks import names
from hosttools.tool_table import guard


def main(argv):
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__.strip())
        print("checks: " + " ".join(names()))
        return 0 if argv else 2
    if argv[0] not in names():
        print(f"check.py: no check named {argv[0]!r}; the checks: "
              f"{' '.join(names())}", file=sys.stderr)
        return 2
    return importlib.import_module(f"hosttools.checks.{argv[0]}").main(argv[1:])


if __name__ == "__main__":
    sys.exit(guard(main, sys.argv[1:]))
