"""The project's own tools, for make test's checks and make bench: none
boots a target for a verdict.

  layout_rule     the dependency rule of the tree: C folders and the host
                  packages
  layout_calls    the calls between the kernel's objects, read with nm
  function_length no host Python function over 60 lines
  tests_table     the docs' tables of tests, from the kernel's list
  table_seeds     the firmware-table fuzzer's seeds
  bench_log       what make bench reads in the kernel's TAP
  kut             kvm-unit-tests' pmu.flat beside pmctest in make bench
"""
