"""Tools by need: on a machine taken to have none of them (make -n with
TOOLS_DRY=1, in an empty build directory), `make run` asks for what
building and booting the ISO needs and for none of the packages only
`make test` uses; FIRMWARE=uefi adds OVMF alone; `make` adds the C
library's headers for the host programs; `make test` asks for every
package, those that build the QEMU with the TCG PMU among them.

usage: tests/check.py tools
"""
import os
import subprocess
import tempfile

from .. import ROOT
from ..tap_out import Tap
from . import argument_parser

# What building the kernel and booting its hybrid ISO in QEMU needs.
RUN = {"gcc", "nasm", "python3", "grub-common", "grub-pc-bin",
       "grub-efi-amd64-bin", "xorriso", "mtools", "console-setup-linux",
       "qemu-system-x86"}
# What the host programs (pmctest-model, pmctest-sim, the unit tests) add.
HOST = {"libc6-dev"}
# What only make test (and make lava, make bench, FIRMWARE=uefi) uses.
TEST_ONLY = {"ovmf", "lava-dispatcher", "bochs", "bochsbios", "vgabios",
             "bochs-term", "perl", "node-tap-parser", "python3-tap", "python3-yaml",
             "librsvg2-bin", "clang", "libclang-rt-dev", "zstd"}
# What building the QEMU with the TCG PMU adds (make test builds it).
QEMU_PMU = {"dpkg-dev", "meson", "ninja-build", "flex", "bison", "pkgconf",
            "libglib2.0-dev", "libpixman-1-dev", "libfdt-dev"}


def asked_for(target, *variables):
    """The packages `make -n TARGET` would install on a bare machine, and
    make's output."""
    # a make of its own, not a part of the make that runs this check
    env = {k: v for k, v in os.environ.items()
           if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL")}
    with tempfile.TemporaryDirectory() as build:
        r = subprocess.run(["make", "--no-print-directory", "-n", target,
                            f"BUILD={build}", "TOOLS_DRY=1", *variables],
                           cwd=ROOT, env=env, capture_output=True, text=True,
                           timeout=120)
    packages = set()
    for line in r.stdout.splitlines():
        if line.startswith("pmctest: tools "):
            packages |= set(line.split(":", 2)[2].split())
    return packages, [f"make -n {target} {' '.join(variables)}: exit {r.returncode}"] + \
        r.stderr.strip().splitlines()[-3:]


def main(argv):
    argument_parser(__name__, __doc__).parse_args(argv)
    tap = Tap()
    print("TAP version 13")
    run, why = asked_for("run")
    tap.check(run == RUN, "make run asks for what building and booting the ISO needs",
              why + [f"missing: {sorted(RUN - run)}", f"more: {sorted(run - RUN)}"])
    tap.check(not run & (TEST_ONLY | QEMU_PMU),
              "make run asks for no package only make test uses",
              why + [f"test-only: {sorted(run & (TEST_ONLY | QEMU_PMU))}"])
    uefi, why = asked_for("run", "FIRMWARE=uefi")
    tap.check(uefi == RUN | {"ovmf"}, "make run FIRMWARE=uefi adds OVMF alone",
              why + [f"asked for: {sorted(uefi)}"])
    built, why = asked_for("all")
    tap.check(built == RUN | HOST, "make adds the host programs' C library headers",
              why + [f"asked for: {sorted(built)}"])
    test, why = asked_for("test")
    every = RUN | HOST | TEST_ONLY | QEMU_PMU
    tap.check(test == every, "make test asks for every package",
              why + [f"missing: {sorted(every - test)}", f"more: {sorted(test - every)}"])
    return tap.finish()
