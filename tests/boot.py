#!/usr/bin/env python3
"""Boot pmctest once in QEMU and turn what happened into an exit status.

The serial console (COM1, TAP) streams to stdout (and to --log). The exit
status is the kernel's verdict, read from isa-debug-exit: 0 no test failed,
1 a test failed, 2 the run could not be carried out. Anything else that can
go wrong (QEMU missing or refusing to start, the guest hanging, resetting or
stopping before its summary line) prints a message on stderr and exits 2.
"""
import argparse
import os
import shutil
import sys

from hosttools.boot import EXIT_HARNESS_ERROR, OVMF, Boot, qemu_command
from hosttools.kernel_cmdline import cmdline_problem
from hosttools.procs import exit_on_signals


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--route", choices=["iso", "pvh"], default="iso")
    p.add_argument("--elf", default="build/pmctest.elf")
    p.add_argument("--iso", default="build/pmctest.iso")
    p.add_argument("--cmdline", default="",
                   help="kernel command line (PVH; the ISO has its own)")
    p.add_argument("--accel", default="tcg")
    p.add_argument("--cpu", default="max")
    p.add_argument("--machine", default="")
    p.add_argument("--firmware", choices=["bios", "uefi"], default="bios",
                   help="uefi: OVMF instead of SeaBIOS (the ISO route)")
    p.add_argument("--memory", type=int, default=64, help="MiB")
    p.add_argument("--qemu", default="qemu-system-x86_64")
    p.add_argument("--qemu-args", default="")
    p.add_argument("--timeout", type=float, default=120.0, help="seconds")
    p.add_argument("--log", help="also write the serial log here")
    return p.parse_args(argv)


def main(argv):
    args = parse_args(argv)
    exit_on_signals()
    if not shutil.which(args.qemu):
        print(f"pmctest: {args.qemu} not found (Debian: qemu-system-x86)",
              file=sys.stderr)
        return EXIT_HARNESS_ERROR
    problem = cmdline_problem(args.cmdline)
    if problem:
        print(f"pmctest: {problem} (status 2)", file=sys.stderr)
        return EXIT_HARNESS_ERROR
    if args.accel == "kvm" and not os.access("/dev/kvm", os.R_OK | os.W_OK):
        why = ("does not exist" if not os.path.exists("/dev/kvm")
               else "is not readable and writable by this user")
        print(f"pmctest: ACCEL=kvm needs /dev/kvm, which {why} here; "
              "run under TCG (the default) or on a host with KVM (status 2)",
              file=sys.stderr)
        return EXIT_HARNESS_ERROR
    if args.firmware == "uefi" and not os.path.exists(OVMF):
        print(f"pmctest: {OVMF} does not exist (Debian: ovmf) (status 2)",
              file=sys.stderr)
        return EXIT_HARNESS_ERROR
    image = args.iso if args.route == "iso" else args.elf
    if not os.path.exists(image):
        print(f"pmctest: {image} does not exist (run make)", file=sys.stderr)
        return EXIT_HARNESS_ERROR
    log = open(args.log, "w") if args.log else None
    boot = Boot(qemu_command(args), args.timeout, True, log)
    boot.flush_preamble(log)
    status, problem = boot.verdict()
    if problem:
        print(f"pmctest: {problem} (status 2)", file=sys.stderr)
    elif status == EXIT_HARNESS_ERROR:
        print("pmctest: the run could not be carried out (see Bail out!; "
              "status 2)", file=sys.stderr)
    elif status:
        print("pmctest: the target deviates from the spec (status 1): see the not ok lines",
              file=sys.stderr)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
