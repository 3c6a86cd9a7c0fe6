"""What a run writes besides the kernel's TAP.

  printer   tests/run's messages, the log printer, the closing lines
  junit     the JUnit file
  html      the conformance report (index.html)
  outputs   --junit and --report, opened before the first boot
  outfile   a file written whole or not at all, checked before the run
  version   the project's version, as the build names it
  spec_doc  the statements of docs/spec.md
  tap_out   TAP on stdout for make test's host checks
"""
