"""Booting: an emulator started, its serial console read as the kernel's
lines, and how it ended. No expectations, no targets: the kinds
(hosttools/targets/) put these together.

  process       an emulator process as a line source (ProcessLines)
  booted        one boot run to its end and read once (Boot): tests/boot.py,
                tests/kvm.py, make bench, the host checks, the `list` boot
  lines         bytes cut into lines in linear time; the kernel's lines
                apart from what firmware and GRUB wrote before them
  qemu          QEMU's command line, and what a QEMU binary says of itself
  bochs         Bochs: its bochsrc, its COM1 file as a line source, its ROMs
  xen_console   Xen's serial console read back: a guest's lines, Xen's own
  cmdline       the kernel command line: put together, and refused as the
                kernel's own parser refuses it
  image_checks  what a boot needs, checked before it: ELF, ISO, machine,
                memory
  isos          one GRUB ISO per kernel command line
  workdir       the scratch directory every boot of one tests/run shares
  test_list     the kernel's list of tests (which one was running)
  probe         the host's tools asked once: versions, model lists
  qmp           one QMP conversation with a QEMU
  bootshim      hostile boot information: its cases and one boot through
                the loader shim
  firmware_tables  ACPI and MP tables as the kernel reads them (for bootshim)
"""
