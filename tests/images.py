#!/usr/bin/env python3
"""What the targets need fetched and built before they boot, as each kind
declares it (Kind.images() in tests/hosttools/targets/): one make target
per line on stdout, for make images.

  tests/images.py                 every target's
  tests/images.py --target NAME   (repeatable) those targets'
  tests/images.py --check --build DIR --qemu-pmu PATH [--xen [VERSION=]PATH]
        after make images: each target's images are there (a Xen of your
        own, --xen as tests/run's, stands for that version's), or a file
        beside them says why they could not be had (no network); status
        2 and one line a target where neither is so (a build that failed
        unseen would leave its targets unavailable in make test, quietly)
"""
import argparse
import sys

from hosttools import targets
from hosttools.images.xen import own_image
from hosttools.tool_table import guard


def main(argv):
    p = argparse.ArgumentParser(prog="tests/images.py",
                                description=__doc__.splitlines()[0])
    p.add_argument("--target", action="append", metavar="NAME",
                   help="only this target's (repeatable)")
    p.add_argument("--check", action="store_true",
                   help="each target's images are there (after make images)")
    p.add_argument("--build", default="build", help="make's BUILD")
    p.add_argument("--qemu-pmu", default="", help="the QEMU with the TCG PMU")
    p.add_argument("--bochs-pmu", default="", help="the counting Bochs")
    p.add_argument("--xen", action="append", default=[], metavar="[VERSION=]PATH",
                   help="your own Xen for that version's targets (tests/run --xen)")
    args = p.parse_args(argv)
    try:
        args.xen = dict(own_image(text) for text in args.xen)
    except ValueError as e:
        p.error(str(e))
    if args.check:
        return check(args)
    for name in args.target or []:
        if not targets.by_name(name):
            p.error(f"no target named {name!r} (tests/run --list-targets)")
    for image in targets.images(args.target):
        print(image)
    return 0


def check(args):
    programs = targets.Programs(elf="", qemu_pmu=args.qemu_pmu,
                                bochs_pmu=args.bochs_pmu, xen=args.xen,
                                build=args.build)
    missing = targets.images_missing(programs)
    for name, what in missing:
        print(f"images: {name}: {what}", file=sys.stderr)
    return 2 if missing else 0


if __name__ == "__main__":
    sys.exit(guard(main, sys.argv[1:]))
