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
import sys

from hosttools.cli.counting_build import main
from hosttools.images.bochs_pmu.build import BOCHS_PMU
from hosttools.procs import exit_on_signals

if __name__ == "__main__":
    exit_on_signals()
    sys.exit(main(sys.argv[1:], BOCHS_PMU, "tests/bochs_pmu.py", __doc__))
