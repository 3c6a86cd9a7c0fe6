#!/usr/bin/env python3
"""Debian's Xen for the xen-* targets: fetch one version's hypervisor, or
list the versions.

  tests/xen.py fetch 4.20 --out build/xen-4.20
        Debian's xen-hypervisor-4.20-amd64 at its pinned version
        (tests/hosttools/images/xen.py; where the archive no longer has it,
        the newest of its series), fetched with apt-get download from the
        Debian release that has it, never installed, into the cache
        ${XDG_CACHE_HOME:-$HOME/.cache}/pmctest (once per machine) and
        copied to OUT: OUT/xen (the ELF), OUT/xen.txt (what was fetched).
        Where it cannot be had (no network, no apt-get), OUT/unavailable
        says why and the exit status is 0 all the same: the targets of
        that version are unavailable with that reason.
  tests/xen.py versions
        the versions of Xen the targets run, one a line (make xen)
"""
import argparse
import sys

from hosttools.images.xen import VERSIONS, fetch
from hosttools.procs import exit_on_signals
from hosttools.tool_table import guard


def say(msg):
    print(f"xen: {msg}", file=sys.stderr, flush=True)


def main(argv):
    p = argparse.ArgumentParser(
        prog="tests/xen.py", description=__doc__.splitlines()[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="\n".join(__doc__.splitlines()[1:]))
    sub = p.add_subparsers(dest="command", required=True)
    f = sub.add_parser("fetch", help="fetch (or copy from the cache) one version")
    f.add_argument("version", choices=list(VERSIONS))
    f.add_argument("--out", required=True, help="where make finds it (BUILD/xen-VERSION)")
    sub.add_parser("versions", help="the versions, one a line")
    args = p.parse_args(argv)
    if args.command == "versions":
        print("\n".join(VERSIONS))
        return 0
    try:
        info = fetch(args.version, args.out, say)
    except ValueError as e:
        say(f"no Xen {args.version} for its xen-* targets: {e}")
        return 0
    say(f"{args.out}: {info['package']} {info['version']}"
        f"{'' if info['pinned'].endswith(' ' + info['version']) else ' (pinned: ' + info['pinned'] + ')'}")
    return 0


if __name__ == "__main__":
    exit_on_signals()
    sys.exit(guard(main, sys.argv[1:]))
