"""tests/run, the host runner, one job per module.

  cli            the options and the choice of mode
  list_targets   --list-targets
  one_target     --target (and --suggest-expectations)
  all_targets    --all: every target in parallel, and the summary table
  diff           --diff: where two targets differ, test by test
  target_run     one boot of one target, judged: the exit status
  expectations   tests/expect/TARGET, read
  globs          the kernel's glob, for expectations and --only
  judge          the TAP of one boot, held against the expectations
  cmdline        the kernel command line a run passes
  availability   whether a target can boot here, and why not
  probe          the host's tools asked once: versions, model lists
  isos           one GRUB ISO per kernel command line
  workdir        the scratch directory every boot of one tests/run shares
  version        the project's version, as the build names it
  qemu, bochs    one boot in that emulator, as an Outcome
  xen            one boot of Xen under QEMU, pmctest its PVH dom0
  nested, vmm    one boot of nested KVM, of a VMM on KVM
  boot_outcome   what QEMU, Xen, nested KVM and the VMMs share: a boot
                 started, its serial lines judged, its end as an Outcome
  outcome        how one boot ended
  test_list      which test was running when a boot stopped
  junit          the JUnit file
  outfile        a file written whole or not at all, checked before the run
  outputs        --junit and --report, opened before the first boot
  output         what tests/run prints besides the TAP
  lava_cli       tests/lava-judge: a finished LAVA job judged as --target
                 judges a boot (and tests/run --all --lava DIR)
  lava_job       a LAVA job's definition and log, read back
  lava_fetch     a job fetched from a LAVA server with lavacli
  lava_run       the job's TAP fed to the same Judge, LAVA's results
                 held against it

They use the package's one boot (hosttools.boot) and its targets table
(hosttools.targets).
"""
