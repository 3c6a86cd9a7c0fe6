#!/usr/bin/env python3
"""The QEMU with the TCG PMU: Debian's QEMU 7.2 with tests/qemu-pmu/patches,
built once per machine and cached outside the clone.

  tests/qemu_pmu.py build --pinned VERSION --out build/qemu-pmu [--cache DIR]
  tests/qemu_pmu.py migration --qemu build/qemu-pmu/qemu-system-x86_64 --elf GUEST

The pinned source version first; where the archive no longer has it, the
newest 7.2. The build is cached in DIR (default
${XDG_CACHE_HOME:-$HOME/.cache}/pmctest) under a key of the source version,
the patches, the configure flags and the recipe; OUT/qemu-system-x86_64
runs it with Debian's ROM folders. Exit status: 0 built, cached, or no
source to be had (OUT/unavailable says why); 1 the build failed; 2 bad
arguments.

migration: the counting guest (tests/qemu-pmu/guest/migrate_count.c) on
the AMD and the Intel model, migrated in the middle of its loop and not,
must count the same. Exit status: 0 equal; 1 a count differs; 2 the check
could not be carried out (QEMU failed or hung, or bad arguments).
"""
import argparse
import os
import sys

from hosttools.procs import exit_on_signals
from hosttools.qemu_pmu import cache, migration
from hosttools.qemu_pmu.build import BuildError, build


def say(msg):
    print(f"qemu-pmu: {msg}", file=sys.stderr, flush=True)


def check_migration(args):
    for path in (args.qemu, args.elf):
        if not os.path.isfile(path):
            say(f"migration: {path}: no such file")
            return 2
    try:
        return migration.check(args.qemu, args.elf, say)
    except (migration.MigrationError, OSError, ValueError) as e:
        say(f"migration: could not be checked: {e}")
        return 2


def main(argv):
    p = argparse.ArgumentParser(
        prog="tests/qemu_pmu.py", description=__doc__.splitlines()[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="\n".join(__doc__.splitlines()[1:]))
    sub = p.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="build or reuse the emulator")
    b.add_argument("--pinned", required=True,
                   help="Debian's qemu source version, e.g. 1:7.2+dfsg-7+deb12u18")
    b.add_argument("--out", required=True, help="where make finds it")
    b.add_argument("--cache", default="",
                   help="the cache folder (default: "
                        "${XDG_CACHE_HOME:-$HOME/.cache}/pmctest)")
    m = sub.add_parser("migration", help="counts across a migration")
    m.add_argument("--qemu", required=True, help="the QEMU with the TCG PMU")
    m.add_argument("--elf", required=True, help="the counting guest")
    args = p.parse_args(argv)
    if args.command == "migration":
        return check_migration(args)
    if not args.pinned.strip() or any(c.isspace() for c in args.pinned):
        p.error(f"--pinned {args.pinned!r}: one Debian version, no spaces")
    try:
        return build(args.pinned, args.cache or cache.default_root(),
                     args.out, say)
    except BuildError as e:
        say(str(e))
        return 1


if __name__ == "__main__":
    exit_on_signals()
    sys.exit(main(sys.argv[1:]))
