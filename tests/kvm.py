#!/usr/bin/env python3
"""Linux KVM, nested in QEMU TCG: build the images of a kernel, or boot
pmctest on one.

  tests/kvm.py build 6.1 --out build/kvm-6.1
        Debian's kernel (tests/hosttools/images/nested/kernels.py), fetched with apt-get
        download; nothing is installed on the host
  tests/kvm.py build --kernel BZIMAGE [--modules DIR] --out build/kvm-own
        your own kernel: a bzImage (or a vmlinux with a PVH entry) and the
        tree its modules are installed in (make modules_install
        INSTALL_MOD_PATH=DIR, or the build tree); without --modules KVM
        must be built in
  tests/kvm.py run --images build/kvm-6.1 [--cmdline 'tests=priv.long.*']
        one boot: pmctest's TAP on stdout, what L1 reported on stderr; the
        exit status is the kernel's, as tests/boot.py's (0, 1, 2)
  tests/kvm.py run --images build/kvm-6.1 --tcg-pmu --qemu build/qemu-pmu/qemu-system-x86_64
        the same with L1 on the QEMU with the TCG PMU (-cpu EPYC,tcg-pmu=on):
        L1's perf finds counters and KVM loads with its vPMU on
  tests/kvm.py run ... --l1-args 'nmi_watchdog=0' --kvm-params 'kvm_amd.enable_mediated_pmu=1'
        words for L1's command line, and KVM's module parameters
        (MODULE.NAME=VALUE), which L1's init gives to each module's insmod
        and reads back: the "# l1 params:" line says what L1 has
  tests/kvm.py run ... --tcg-pmu --perfmon-v2 --inner-qemu build/qemu-pmu/qemu-system-x86_64
        L1 with AMD PerfMonV2 (-cpu EPYC,tcg-pmu=on,tcg-pmu-perfmon-v2=on),
        and the QEMU with the TCG PMU as the guest's QEMU in L1 (it gives
        the guest CPUID 8000_0022H): what KVM's mediated vPMU needs;
        --inner-cpu and --inner-smp choose the guest's -cpu and vCPUs
  tests/kvm.py series
        the series of Debian's kernels KVM= takes, one a line
"""
import argparse
import os
import re
import sys
import tempfile

from hosttools import ROOT
from hosttools.boot.booted import Boot
from hosttools.boot.cmdline import cmdline_problem
from hosttools.boot.image_checks import elf_problem
from hosttools.images.counting.wrapper import real_binary
from hosttools.images.nested.build import build_debian, build_own, read_info
from hosttools.images.nested.initramfs import run_archive
from hosttools.images.nested.kernels import KERNELS
from hosttools.images.nested.outer import OUTER_CPU, TCG_PMU, outer_command
from hosttools.images.nested.params import kvm_params_problem, l1_args_problem, vmm_problem
from hosttools.judge.tap import EXIT_ERROR as EXIT_HARNESS_ERROR
from hosttools.procs import exit_on_signals
from hosttools.tool_table import guard
L1_REPORT = re.compile(r"^(pmctest-l1: .*|\s*\d+ kvm.*)$", re.M)
L1_PARAMS = re.compile(r"^pmctest-l1: params (.*)$")


def say(msg):
    print(f"kvm: {msg}", file=sys.stderr, flush=True)


def report_l1(line):
    """L1's report lines to stderr as they come (what L1 has of what was
    asked of it as "# l1 params:", the header line tests/run's nested
    targets write); none join the TAP on stdout."""
    m = L1_PARAMS.match(line.strip())
    if m:
        print(f"# l1 params: {m.group(1)}", file=sys.stderr, flush=True)
    elif L1_REPORT.match(line):
        print(line.strip(), file=sys.stderr, flush=True)
    return []


def build(args):
    try:
        if args.kernel:
            info = build_own(args.kernel, args.modules, args.out, say)
        elif args.name in KERNELS:
            info = build_debian(args.name, args.out, say)
        else:
            say(f"no kernel named {args.name!r}: {', '.join(KERNELS)} or "
                "--kernel PATH")
            return EXIT_HARNESS_ERROR
    except (ValueError, OSError) as e:
        say(f"cannot build {args.out}: {e}")
        return EXIT_HARNESS_ERROR
    say(f"{args.out}: Linux {info['linux']}; {info['boot']}; modules: "
        f"{info['modules']}")
    return 0


def run(args):
    kvm_params, l1_args = args.kvm_params.split(), args.l1_args.split()
    problem = (kvm_params_problem(kvm_params) or l1_args_problem(l1_args) or
               vmm_problem(args.inner_cpu, args.inner_smp) or
               cmdline_problem(args.cmdline) or elf_problem(args.elf))
    try:
        vmm = real_binary(args.inner_qemu) if args.inner_qemu else None
    except ValueError as e:
        problem = problem or f"--inner-qemu: {e}"
    if problem:
        say(f"{problem} (status 2)")
        return EXIT_HARNESS_ERROR
    info = read_info(args.images)
    if info is None:
        say(f"{args.images} holds no built kernel: tests/kvm.py build first")
        return EXIT_HARNESS_ERROR
    with open(args.elf, "rb") as f:
        elf = f.read()
    with tempfile.NamedTemporaryFile(suffix=".cpio") as initrd:
        with open(os.path.join(args.images, "initrd.cpio"), "rb") as base:
            initrd.write(base.read())
        initrd.write(run_archive(elf, args.cmdline, kvm_params, l1_args,
                                 args.inner_cpu, args.inner_smp, vmm))
        initrd.flush()
        log = open(args.log, "w") if args.log else None
        cpu = OUTER_CPU + (TCG_PMU if args.tcg_pmu else "") + \
            (",tcg-pmu-perfmon-v2=on" if args.perfmon_v2 else "")
        say(f"L1 on {args.qemu} -cpu {cpu}")
        # L1's report as it comes: its kernel, KVM's enable_pmu and perf's
        # "Performance Events:" line before pmctest's TAP, KVM's log after.
        boot = Boot(outer_command(args.qemu, os.path.join(args.images,
                                                          "kernel"),
                                  initrd.name, cpu, l1_args), args.timeout, True, log,
                    stderr_line=report_l1)
    status, problem = boot.verdict()
    if problem and not boot.tap_lines:
        problem = "no TAP from pmctest"
    if problem:
        say(f"{problem} (status 2)")
    elif status:
        say(f"the target deviates from the spec (status {status})")
    return status


def main(argv):
    p = argparse.ArgumentParser(
        prog="tests/kvm.py", description=__doc__.splitlines()[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="\n".join(__doc__.splitlines()[1:]))
    sub = p.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="build the images of a kernel")
    b.add_argument("name", nargs="?", help=f"Debian's: {', '.join(KERNELS)}")
    b.add_argument("--kernel", help="your bzImage or vmlinux instead")
    b.add_argument("--modules", help="the tree its modules are in")
    b.add_argument("--out", required=True, help="the images' directory")
    r = sub.add_parser("run", help="boot pmctest once on built images")
    r.add_argument("--images", required=True)
    r.add_argument("--elf", default=os.path.join(ROOT, "build", "pmctest.elf"))
    r.add_argument("--cmdline", default="", help="pmctest's command line")
    r.add_argument("--qemu", default="qemu-system-x86_64",
                   help="the outer QEMU, L1's")
    r.add_argument("--tcg-pmu", action="store_true",
                   help="-cpu EPYC,tcg-pmu=on: a --qemu built with "
                        "tests/qemu-pmu/patches (make qemu-pmu)")
    r.add_argument("--timeout", type=float, default=600.0)
    r.add_argument("--log", help="also write the TAP here")
    r.add_argument("--perfmon-v2", action="store_true",
                   help="with --tcg-pmu: L1 with AMD PerfMonV2 "
                        "(tcg-pmu-perfmon-v2=on)")
    r.add_argument("--inner-qemu", default="", metavar="PATH",
                   help="the guest's QEMU in L1 (make's build/qemu-pmu/"
                        "qemu-system-x86_64): copied with its libraries over "
                        "the initramfs's")
    r.add_argument("--inner-cpu", default="host", help="the guest's -cpu")
    r.add_argument("--inner-smp", type=int, default=1, help="the guest's vCPUs")
    r.add_argument("--l1-args", default="", metavar="WORDS",
                   help="words added to L1's kernel command line")
    r.add_argument("--kvm-params", default="", metavar="MODULE.NAME=VALUE...",
                   help="KVM's module parameters, given to each module's insmod")
    sub.add_parser("series", help="the series of Debian's kernels KVM= takes")
    args = p.parse_args(argv)
    if args.command == "series":
        print("\n".join(KERNELS))
        return 0
    if args.command == "run" and args.perfmon_v2 and not args.tcg_pmu:
        p.error("--perfmon-v2 goes with --tcg-pmu")
    if args.command == "build":
        if bool(args.name) == bool(args.kernel):
            p.error("build takes a kernel name or --kernel PATH")
        if args.modules and not args.kernel:
            p.error("--modules goes with --kernel")
        return build(args)
    return run(args)


if __name__ == "__main__":
    exit_on_signals()
    sys.exit(guard(main, sys.argv[1:]))
