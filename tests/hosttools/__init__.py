"""pmctest's host side, one package: what boots the kernel, reads its TAP
and judges it. The commands next to this folder (tests/run, tests/boot.py,
tests/bench.py, tests/lava.py, tests/lava-judge, tests/mutation.py, tests/check.py,
tests/clean_room.py, tests/load_loop.py) import it; Python puts a
script's own folder on its path, so they run from any directory with
nothing set.

  boot        one QEMU boot: its command line, its serial lines, its verdict
  bootshim    hostile boot information: its cases, one boot through the
              loader shim, and how it is judged
  kernel_cmdline  the kernel command line as the kernel parses it
  procs       the processes the tools start, and the signals that end them
  lines       an emulator's bytes cut into lines, in linear time
  verdict     the one verdict on a boot's TAP, for boot.py, tests/run, lava.py,
              and the one reader of its YAML blocks
  args        command-line parsing: one-line errors, numbers that mean something
  images      what a boot needs, checked before it: ELF, ISO, machine, memory
  xmltext     a target's text fit for XML and HTML, capped
  tap_log     the patterns the host matches in the kernel's lines: result
              lines, the summary, a short block's `same:`, the `list` lines
  tap_out     TAP on stdout for the host checks
  xen_console Xen's serial console read back: a guest's lines after
              "(d0) ", joined where Xen cut them, and Xen's own lines
  bench_log   what make bench reads in the kernel's TAP
  kut         kvm-unit-tests' pmu.flat beside pmctest in make bench
  targets     the targets tests/run boots pmctest on (data)
  lava_log    a LAVA job's log read back: records, the kernel's serial
              lines (not LAVA's 'poweroff' and its echo), LAVA's results
  lava_ids    LAVA's case names for pmctest's test IDs
  spec_doc    the statements of docs/spec.md
  tool_table  scripts/tools.txt: the tools each command needs, their
              packages, and the one line a missing program gives
  rootfs      a throwaway Debian root (make clean-room), entered through
              private namespaces and removed without crossing a mount
  runner/     tests/run, one job per module
  checks/     make test's host checks (tests/check.py NAME)
"""
import os

# tests/: expect/, profiles/, lava/ and the commands
TESTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# the repository
ROOT = os.path.dirname(TESTS)
# scripts/: the build tools (mkiso, version.py, psf2c.py)
SCRIPTS = os.path.join(ROOT, "scripts")
