"""tests/qemu_pmu.py and tests/bochs_pmu.py: build a counting emulator
(hosttools/images/counting/), or reuse its cached build, for make. Each
script hands over its Emulator, its name on the command line and its
manual (its docstring); the exit statuses are the same for both: 0 built,
cached, or no source to be had (OUT/unavailable says why); 1 the build
failed; 2 bad arguments."""
import argparse
import sys

from ..images import cache
from ..images.counting.build import build
from ..images.counting.build_log import BuildError


def parse(argv, emulator, prog, manual):
    """The command line's arguments; exits 2 on bad ones."""
    p = argparse.ArgumentParser(
        prog=prog, description=manual.splitlines()[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="\n".join(manual.splitlines()[1:]))
    sub = p.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help=f"build or reuse the {emulator.title}")
    b.add_argument("--pinned", required=True,
                   help=f"Debian's {emulator.package} source version of the "
                        f"{emulator.upstream} series ({emulator.release})")
    b.add_argument("--out", required=True, help="where make finds it")
    b.add_argument("--cache", default="",
                   help="the cache folder (default: "
                        "${XDG_CACHE_HOME:-$HOME/.cache}/pmctest)")
    args = p.parse_args(argv)
    if not args.pinned.strip() or any(c.isspace() for c in args.pinned):
        p.error(f"--pinned {args.pinned!r}: one Debian version, no spaces")
    return args


def main(argv, emulator, prog, manual):
    """The exit status of the command line argv."""
    args = parse(argv, emulator, prog, manual)

    def say(msg):
        print(f"{emulator.name}: {msg}", file=sys.stderr, flush=True)

    try:
        return build(emulator, args.pinned, args.cache or cache.default_root(),
                     args.out, say)
    except BuildError as e:
        say(str(e))
        return 1
