"""What a counting emulator's build depends on, and the cache key that
names it: the source version and release, our patches in series order,
the configure flags and other settings, the modules the build runs (the
emulator's own, this package's and the images modules they stand on: a
change to any builds again) and the system it is built on
(cache.build_host())."""
import glob
import os

from .. import cache

HERE = os.path.dirname(os.path.abspath(__file__))
# the modules of hosttools/images/ the build stands on: Debian's archive
# through our own sources list, and the cache
STANDS_ON = [os.path.join(os.path.dirname(HERE), name)
             for name in ("archive.py", "apt_sources.py", "cache.py")]


def series(patches):
    """The patch files in the order the folder's file series gives."""
    with open(os.path.join(patches, "series")) as f:
        names = [l.strip() for l in f if l.strip() and not l.startswith("#")]
    return [os.path.join(patches, n) for n in names]


def recipe_files(emulator):
    """Every module a build of the emulator runs."""
    return (sorted(glob.glob(os.path.join(emulator.modules, "*.py"))) +
            sorted(glob.glob(os.path.join(HERE, "*.py"))) + STANDS_ON)


def cache_key(emulator, version):
    """16 hex digits of SHA-256 over everything the binary depends on."""
    return cache.build_key(
        f"source {emulator.package}={version} {emulator.release}",
        series(emulator.patches) + recipe_files(emulator),
        ["configure " + " ".join(emulator.configure_flags)] + list(emulator.settings))
