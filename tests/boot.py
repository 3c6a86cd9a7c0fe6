#!/usr/bin/env python3
"""Boot pmctest once in QEMU and turn what happened into an exit status.

The serial console (COM1, TAP) streams to stdout (and to --log). The exit
status is the kernel's verdict, read from isa-debug-exit and held against
its TAP: 0 no test failed, 1 a test failed, 2 the run could not be carried
out. Anything else (QEMU missing or refusing to start, the guest hanging,
resetting or stopping before its summary line, TAP whose plan, numbers,
summary or exit status do not agree, an image or a machine that cannot
boot, an unwritable --log) prints one line on stderr and exits 2.
"""
import os
import shutil
import sys

from hosttools import TESTS
from hosttools.boot.booted import Boot
from hosttools.boot.cmdline import cmdline_problem
from hosttools.boot.image_checks import (elf_problem, iso_problem, machine_of,
                                         memory_of, memory_problem, route_problem)
from hosttools.boot.qemu import OVMF, default_memory, qemu_command
from hosttools.cli.args import Parser, count, seconds
from hosttools.judge.expectations import load_expectations
from hosttools.judge.tap import EXIT_ERROR as EXIT_HARNESS_ERROR
from hosttools.procs import exit_on_signals
from hosttools.tool_table import guard


def parse_args(argv):
    p = Parser(description=__doc__.splitlines()[0])
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
    p.add_argument("--memory", type=count(1), default=None,
                   help="MiB (default 64; 128 with --firmware uefi)")
    p.add_argument("--qemu", default="qemu-system-x86_64")
    p.add_argument("--qemu-args", default="")
    p.add_argument("--timeout", type=seconds, default=120.0, help="seconds")
    p.add_argument("--log", help="also write the serial log here")
    return p.parse_args(argv)


def problem_before_booting(args):
    """Why this boot cannot work, found before QEMU starts, or None."""
    if not shutil.which(args.qemu):
        return f"{args.qemu} not found (Debian: qemu-system-x86)"
    problem = cmdline_problem(args.cmdline)
    if problem:
        return problem
    if args.accel == "kvm" and not os.access("/dev/kvm", os.R_OK | os.W_OK):
        why = ("does not exist" if not os.path.exists("/dev/kvm")
               else "is not readable and writable by this user")
        return (f"ACCEL=kvm needs /dev/kvm, which {why} here; run under TCG "
                "(the default) or on a host with KVM")
    if args.firmware == "uefi" and not os.path.exists(OVMF):
        return f"{OVMF} does not exist (Debian: ovmf)"
    image = args.iso if args.route == "iso" else args.elf
    if not os.path.exists(image):
        return f"{image} does not exist (run make)"
    problem = (iso_problem(args.iso) if args.route == "iso"
               else elf_problem(args.elf))
    if problem:
        return problem
    qemu_args = args.qemu_args.split()
    problem = route_problem(args.route, machine_of(args.machine, qemu_args),
                            args.firmware)
    if problem:
        return problem
    megs = memory_of(args.memory or default_memory(args.firmware), qemu_args)
    if megs is None:
        return ("--qemu-args: an -m this cannot read (give the size in MiB, "
                "or --memory)")
    return memory_problem(args.route, args.firmware, megs, args.elf)


def main(argv):
    args = parse_args(argv)
    exit_on_signals()
    problem = problem_before_booting(args)
    if problem:
        print(f"pmctest: {problem} (status 2)", file=sys.stderr)
        return EXIT_HARNESS_ERROR
    try:
        log = open(args.log, "w") if args.log else None
        boot = Boot(qemu_command(args.qemu, args.accel, args.cpu, args.route,
                                 elf=args.elf, iso=args.iso, cmdline=args.cmdline,
                                 machine=args.machine, firmware=args.firmware,
                                 memory=args.memory, qemu_args=args.qemu_args.split()),
                    args.timeout, True, log)
        if log:
            log.close()
    except OSError as e:
        print(f"pmctest: cannot write the log {args.log}: {e.strerror} "
              "(status 2)", file=sys.stderr)
        return EXIT_HARNESS_ERROR
    status, problem = boot.verdict()
    if problem:
        print(f"pmctest: {problem} (status 2)", file=sys.stderr)
    elif status:
        print("pmctest: the target deviates from the spec (status 1): see the not ok lines",
              file=sys.stderr)
        known = known_under_tcg(args, boot.tap.results)
        if known:
            print(f"pmctest: {known}", file=sys.stderr)
    return status


def known_under_tcg(args, results):
    """Where a TCG run's failures are all those tests/expect/ records for
    QEMU TCG on this CPU model: the line saying this is the expected
    finding, not a broken build; else None."""
    path = os.path.join(TESTS, "expect", f"qemu-tcg-{args.cpu}")
    if args.accel != "tcg" or args.qemu_args or not os.path.isfile(path):
        return None
    try:
        known = load_expectations(path)
    except ValueError:
        return None
    failed = [r.id for r in results if r.kind == "fail"]
    if not failed or not all(any(e.regex.match(i) for e in known) for i in failed):
        return None
    return (f"that is the expected finding under QEMU TCG, not a broken build: all "
            f"{len(failed)} not ok lines are what {os.path.relpath(path)} records "
            f"(TCG raises #UD on RDPMC and its counters do not count)")


if __name__ == "__main__":
    sys.exit(guard(main, sys.argv[1:]))
