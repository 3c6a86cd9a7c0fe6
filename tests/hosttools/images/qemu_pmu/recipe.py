"""What the emulator is built from and how, and the cache key that names
it: the source version, the patches in series order, the configure flags,
the recipe (this module and build.py) and the system it is built on
(cache.build_host())."""
import os

from ... import TESTS
from .. import cache

PACKAGE = "qemu"
PATCHES = os.path.join(TESTS, "qemu-pmu", "patches")
BINARY = "qemu-system-x86_64"

# x86_64-softmmu alone; the dfsg tarball has no edk2 blobs, so their
# unpacking is off (--disable-install-blobs, as Debian's own build).
CONFIGURE = ["--target-list=x86_64-softmmu", "--disable-install-blobs",
             "--disable-docs", "--disable-werror", "--disable-strip"]

# Debian's ROM folders (debian/rules' FIRMWAREPATH): the BIOS, option and
# network ROMs of qemu-system-data, seabios and ipxe-qemu. The build is
# not installed, so they are passed with -L on every run.
DEBIAN_ROMS = ["/usr/share/qemu", "/usr/share/seabios", "/usr/lib/ipxe/qemu"]


def series():
    """The patch files in the order tests/qemu-pmu/patches/series gives."""
    with open(os.path.join(PATCHES, "series")) as f:
        names = [l.strip() for l in f if l.strip() and not l.startswith("#")]
    return [os.path.join(PATCHES, n) for n in names]


def recipe_files():
    here = os.path.dirname(os.path.abspath(__file__))
    return [os.path.join(here, "recipe.py"), os.path.join(here, "build.py")]


def cache_key(version):
    """16 hex digits of SHA-256 over everything the binary depends on."""
    return cache.build_key(f"source {PACKAGE}={version}", series() + recipe_files(),
                           ["configure " + " ".join(CONFIGURE)])


def pkgversion(version, key):
    """What qemu --version shows in parentheses."""
    return f"Debian {version}, pmctest tcg-pmu {key}"
