"""What the counting Bochs is built from and how, and the cache key that
names it: the source version, the patches in series order, the configure
flags, the recipe (this module, build.py and source.py) and the system it
is built on (cache.build_host())."""
import os

from ... import TESTS
from .. import cache

PACKAGE = "bochs"
# Debian's suite that has Bochs 3.0 (bookworm has 2.7, whose orig tarball
# the archive no longer serves)
SUITE = "trixie"
PATCHES = os.path.join(TESTS, "bochs-pmu", "patches")
BINARY = "bochs"
CACHE_NAME = "bochs-pmu"

# Headless (no GUI but the term display the runner drains), no debugger
# (so no -rc), the CPU models' features: x86-64, VMX with EPT and the
# rest (vmx=2), AVX and AVX-512 (evex) for Skylake-X and later, CET and
# protection keys for Tiger Lake, SMP; the performance-monitoring MSRs.
CONFIGURE = ["--with-nogui", "--with-term", "--enable-x86-64",
             "--enable-cpu-level=6", "--enable-vmx=2", "--enable-smp",
             "--enable-avx", "--enable-evex", "--enable-cet",
             "--enable-protection-keys", "--enable-all-optimizations",
             "--enable-perfmon"]
# No debug information: a smaller binary, a quicker build
CXXFLAGS = "-O2"


def series():
    """The patch files in the order tests/bochs-pmu/patches/series gives."""
    with open(os.path.join(PATCHES, "series")) as f:
        names = [l.strip() for l in f if l.strip() and not l.startswith("#")]
    return [os.path.join(PATCHES, n) for n in names]


def recipe_files():
    here = os.path.dirname(os.path.abspath(__file__))
    return [os.path.join(here, n) for n in ("recipe.py", "build.py", "source.py")]


def cache_key(version):
    """16 hex digits of SHA-256 over everything the binary depends on."""
    return cache.build_key(f"source {PACKAGE}={version} {SUITE}",
                           series() + recipe_files(),
                           ["configure " + " ".join(CONFIGURE), f"CXXFLAGS {CXXFLAGS}"])


def release(version, key):
    """What Bochs prints under its banner in place of its snapshot date."""
    return f"Debian {version}, pmctest bochs-pmu {key}"
