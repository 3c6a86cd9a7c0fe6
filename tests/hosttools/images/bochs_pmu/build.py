"""The counting Bochs as the counting emulators' build
(hosttools/images/counting/) runs it, BOCHS_PMU: trixie's bochs source of
the 3.0 series and the configure flags, and its own steps between the
shared ones: its source fetched and unpacked (source.py), and, once our
series is applied, configure in the tree and the build named under
Bochs' banner; make builds bochs there."""
import os
import re

from ..counting.build_log import run_logged
from ..counting.emulator import Emulator
from .source import fetch

# No debug information: a smaller binary, a quicker build
CXXFLAGS = "-O2"


def rel_string(version, key):
    """What Bochs prints under its banner in place of its snapshot date
    (REL_STRING; hosttools/boot/bochs.py reads it back)."""
    return f"Debian {version}, pmctest bochs-pmu {key}"


def name_release(tree, version, key):
    """Bochs prints REL_STRING under its banner: name the build there."""
    path = os.path.join(tree, "bxversion.h")
    with open(path) as f:
        text = f.read()
    text = re.sub(r'^#define REL_STRING .*$',
                  f'#define REL_STRING    "{rel_string(version, key)}"',
                  text, flags=re.M)
    with open(path, "w") as f:
        f.write(text)


def configure(tree, flags, version, key, log):
    """The tree, configured and the build named in it."""
    run_logged(["env", f"CXXFLAGS={CXXFLAGS}", f"CFLAGS={CXXFLAGS}",
                "./configure", *flags], tree, log, "configure failed")
    name_release(tree, version, key)
    return tree


BOCHS_PMU = Emulator(
    name="bochs-pmu", title="counting Bochs", package="bochs",
    # Debian's release that has Bochs 3.0 (bookworm has 2.7, whose orig
    # tarball the archive no longer serves)
    release="trixie", upstream="3.0", binary="bochs",
    # headless (no GUI but the term display the runner drains), no
    # debugger (so no -rc), the CPU models' features: x86-64, VMX with
    # EPT and the rest (vmx=2), AVX and AVX-512 (evex) for Skylake-X and
    # later, CET and protection keys for Tiger Lake, SMP; the
    # performance-monitoring MSRs
    configure_flags=("--with-nogui", "--with-term", "--enable-x86-64",
                     "--enable-cpu-level=6", "--enable-vmx=2", "--enable-smp",
                     "--enable-avx", "--enable-evex", "--enable-cet",
                     "--enable-protection-keys", "--enable-all-optimizations",
                     "--enable-perfmon"),
    fetch=fetch, configure=configure, build_tool="make",
    build_time="3-5 minutes", settings=(f"CXXFLAGS {CXXFLAGS}",))
