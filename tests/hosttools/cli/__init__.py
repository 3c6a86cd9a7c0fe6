"""The commands' main parts: tests/run, tests/lava-judge, and
tests/qemu_pmu.py and tests/bochs_pmu.py.

  run           tests/run's options and the choice of mode
  options       the options as one immutable value
  args          command-line parsing: one-line errors, numbers that mean
                something
  list_targets  --list-targets
  one_target    --target (and --suggest-expectations)
  all_targets   --all: every target in parallel, and the summary table
  diff          --diff: where two targets differ, test by test
  target_run    one boot of one target, judged: the exit status
  lava_judge    tests/lava-judge: a finished LAVA job judged as --target
                judges a boot
  counting_build
                tests/qemu_pmu.py and tests/bochs_pmu.py: a counting
                emulator built or reused, OUT pointed at it
"""
