#!/usr/bin/env python3
"""The QEMU with the TCG PMU: Debian's QEMU 7.2 with tests/qemu-pmu/patches,
built once per machine and cached outside the clone.

  tests/qemu_pmu.py build --pinned VERSION --out build/qemu-pmu [--cache DIR]

The pinned source version first; where the archive no longer has it, the
newest 7.2. The build is cached in DIR (default
${XDG_CACHE_HOME:-$HOME/.cache}/pmctest) under a key of the source version,
the patches, the configure flags and the recipe; OUT/qemu-system-x86_64
runs it with Debian's ROM folders. Exit status: 0 built, cached, or no
source to be had (OUT/unavailable says why); 1 the build failed; 2 bad
arguments.
"""
import sys

from hosttools.cli.counting_build import main
from hosttools.images.qemu_pmu.build import QEMU_PMU
from hosttools.procs import exit_on_signals

if __name__ == "__main__":
    exit_on_signals()
    sys.exit(main(sys.argv[1:], QEMU_PMU, "tests/qemu_pmu.py", __doc__))
