"""make test's host checks, one module each, run by tests/check.py NAME;
each prints TAP on stdout and exits 1 when a check fails.

  boot           the kernel booted both ways: selftests, refusals, options
  cli            what a user types: every command's --help, make run, refusals
  docs           the manual: every link and anchor resolves, README.md <= 250 lines
  hostile_boot   crafted boot information through the loader shim, refused
  firmware_tables the firmware-table reader on its seeds, and the seeds current
  fuzz_tap       the TAP and YAML reader under seeded mutants, TAP::Parser as oracle
  hostile        the host tools under hostile logs, arguments, signals, make variables
  kernel_cmdline the host asks the kernel's own command-line parser, to its limits
  lava_judge     tests/lava-judge on the kept LAVA jobs and hostile variants
  lava_logs      LAVA job logs kept in tests/lava/logs/, read back
  layout         the dependency rule of the source tree, on includes and on calls
  msr_lists      the kernel's MSR numbers against the simulator's own list
  lost_writer    an AP lost before and after each line it writes: the log stays TAP
  report         the conformance report, rendered and read back
  qemu_pmu_migration  the TCG PMU's counts across a migration
  runner         tests/run itself, with real boots and fake emulators
  screen         the screen console, read back from screendumps
  spec_coverage  which tests check which spec statement (docs/spec-coverage.md)
  tools          the tool table: each command's sets, each check able to fail
  tap_parsers    the TAP logs read by Perl's, Python's and node's parsers
  xen_diff       each Xen target against bare TCG, every difference in
                 docs/findings.md
"""
import argparse
import pkgutil


def argument_parser(module_name, doc):
    """The options of the check module_name (its __name__), described by
    the first line of doc; its usage names it as tests/check.py does."""
    name = module_name.rsplit(".", 1)[-1]
    return argparse.ArgumentParser(prog=f"tests/check.py {name}",
                                   description=doc.splitlines()[0])


def names():
    """The checks there are: the modules of this package."""
    return sorted(m.name for m in pkgutil.iter_modules(__path__))
