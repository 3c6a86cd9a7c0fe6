#!/usr/bin/env python3
"""The counting Bochs: Debian's Bochs 3.0 with tests/bochs-pmu/patches,
built once per machine and cached outside the clone.

  tests/bochs_pmu.py build --pinned VERSION --out build/bochs-pmu [--cache DIR]

The pinned source version of Debian's trixie first; where the archive no
longer has it, the newest 3.0. The build is cached in DIR (default
${XDG_CACHE_HOME:-$HOME/.cache}/pmctest) under a key of the source
version, the patches, the configure flags and the recipe; OUT/bochs runs
it. Exit status: 0 built, cached, or no source to be had (OUT/unavailable
says why); 1 the build failed; 2 bad arguments.
"""
import argparse
import sys

from hosttools.procs import exit_on_signals
from hosttools.images import cache
from hosttools.images.bochs_pmu.build import BuildError, build


def say(msg):
    print(f"bochs-pmu: {msg}", file=sys.stderr, flush=True)


def main(argv):
    p = argparse.ArgumentParser(
        prog="tests/bochs_pmu.py", description=__doc__.splitlines()[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="\n".join(__doc__.splitlines()[1:]))
    sub = p.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="build or reuse the counting Bochs")
    b.add_argument("--pinned", required=True,
                   help="Debian's bochs source version, e.g. 3.0+dfsg-1")
    b.add_argument("--out", required=True, help="where make finds it")
    b.add_argument("--cache", default="",
                   help="the cache folder (default: "
                        "${XDG_CACHE_HOME:-$HOME/.cache}/pmctest)")
    args = p.parse_args(argv)
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
