"""pmctest's host side, one package: what boots the kernel, reads its TAP
and judges it. The commands next to this folder (tests/run, tests/boot.py,
tests/kvm.py, tests/bench.py, tests/lava.py, tests/lava-judge,
tests/mutation.py, tests/check.py, tests/clean_room.py, tests/load_loop.py,
tests/qemu_pmu.py, tests/images.py) import it; Python puts a script's own
folder on its path, so they run from any directory with nothing set.

A folder per concern, each standing only on those below it
(devtools/layout_rule.py, PACKAGES, checked in make test):

  judge/     the kernel's TAP read once, held against the expectations
  boot/      emulators started, their serial lines read, how they ended
  images/    what the targets need fetched and built (make images)
  lava/      LAVA's job templates, logs and servers
  targets/   the targets as data, and their kinds: the one registry
  report/    what a run writes: JUnit, the HTML report, the printer
  cli/       tests/run, tests/lava-judge, the counting emulators' builds
  devtools/  the project's own tools: the layout lint, doc tables, seeds
  checks/    make test's host checks (tests/check.py NAME)

  procs       the processes the tools start, and the signals that end them
  tool_table  scripts/tools.txt: the tools each command needs, their
              packages, and the one line a missing program gives
"""
import os

# tests/: expect/, profiles/, lava/ and the commands
TESTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# the repository
ROOT = os.path.dirname(TESTS)
# scripts/: the build tools (mkiso, version.py, psf2c.py)
SCRIPTS = os.path.join(ROOT, "scripts")
