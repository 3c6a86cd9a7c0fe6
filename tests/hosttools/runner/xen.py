"""One boot of Xen under QEMU TCG with pmctest as its PVH dom0, as an
Outcome: the kernel's lines are those Xen prints after "(d0) " (the kernel
finds no UART, COM1 being Xen's, and writes to port E9H)."""
import os
import re

from .. import boot as qemu_boot
from ..xen_console import XenConsole

from .boot_outcome import judge_end, start
from .cmdline import kernel_cmdline
from .outcome import Outcome
from .probe import cached, command_output
from .qemu import qemu_for, qemu_version

# Xen's command line: a PVH dom0 (it needs the IOMMU), small, with one
# vCPU (Xen starts a PVH guest's others by hypercall, not INIT-SIPI-SIPI,
# and its MADT then lists one CPU), Xen's console on COM1 with the guest's
# lines (guest_loglvl=all) and its own info lines (loglvl=all: "VPMU:
# version 0.1"); after dom0 stops, no reboot.
XEN_CMDLINE = ("dom0=pvh iommu=1 dom0_mem=16M dom0_max_vcpus=1 console=com1 "
               "com1=115200,8n1 guest_loglvl=all loglvl=all noreboot")
MEMORY_MIB = 256


def xen_package(xen):
    """(package, pinned, fetched) as scripts/fetch_xen.py wrote them next to
    the image, or None for a Xen of the user's own (XEN=path)."""
    try:
        with open(os.path.join(os.path.dirname(os.path.abspath(xen)),
                               "package")) as f:
            words = f.read().split()
    except OSError:
        return None
    return tuple(words) if len(words) == 3 else None


def xen_unavailable(xen):
    """Why scripts/fetch_xen.py could not fetch Xen, if it said."""
    try:
        with open(os.path.join(os.path.dirname(os.path.abspath(xen)),
                               "unavailable")) as f:
            return f.read().strip()
    except OSError:
        return None


def qemu_has_amd_iommu(qemu):
    devices = cached(("qemu-devices", qemu),
                     lambda: command_output([qemu, "-device", "help"]))
    return re.search(r'^name "amd-iommu"', devices, re.M) is not None


def xen_command(opts, target, cmdline):
    """QEMU (--qemu-pmu for a target on the TCG PMU) boots Xen (a Multiboot
    kernel) with the ELF as its module; a module's command line follows its
    file name, and QEMU splits -initrd at commas, so the kernel's commas
    are doubled."""
    module = opts.elf + (" " + cmdline.replace(",", ",,") if cmdline else "")
    return [qemu_for(target, opts), "-nodefaults", "-no-reboot", "-display", "none",
            "-serial", "stdio", "-monitor", "none", "-M", target["machine"],
            "-device", "amd-iommu", "-accel", target["accel"],
            "-cpu", target["cpu"], "-m", str(MEMORY_MIB),
            "-kernel", opts.xen,
            "-append", " ".join(filter(None, [XEN_CMDLINE, target["xen_args"]])),
            "-initrd", module] + qemu_boot.DEBUG_EXIT


def console_log_path(opts, target):
    """Where Xen's whole console goes: beside the TAP log, if there is one."""
    if getattr(opts, "log_dir", None) and opts.all:
        return os.path.join(opts.log_dir, target["name"] + ".console.log")
    if getattr(opts, "log", None):
        return re.sub(r"(\.log)?$", ".console.log", opts.log, count=1)
    return None


def run_xen(target, opts, ctx, judge, timeout):
    outcome = Outcome()
    package = xen_package(opts.xen)
    if package and package[1] != package[2]:
        outcome.changed = (f"Xen changed: {package[0]} {package[1]} is pinned, "
                           f"the archive had {package[2]}")
        judge.out(f"# run: {outcome.changed}: a result that differs from "
                  "the expectations is Xen's change, not pmctest's")
    elif package:
        judge.out(f"# run: xen: {package[0]} {package[2]} (the pinned version)")
    else:
        judge.out(f"# run: xen: {opts.xen}, a Xen of your own (XEN=path)")

    def xen_line(text):
        # The runner's header names what Xen says it is; Xen's VPMU lines
        # (vpmu_init(): "VPMU: version 0.1" where it turned its vPMU on)
        # join the log's header comments as "# xen: VPMU: ...", which an
        # expectation file's "# header:" lines can require.
        if text.startswith("Xen version"):
            judge.out(f"# run: xen: {text}")
        elif text.startswith("VPMU"):
            judge.feed(f"# xen: {text}")

    console = XenConsole(0, xen_line)
    cmd = xen_command(opts, target, kernel_cmdline(opts, ctx.excluded, target))
    log_path = console_log_path(opts, target)
    raw = open(log_path, "w") if log_path else None
    try:
        boot = start(cmd, timeout, judge, outcome, "QEMU", console=console)
    finally:
        if raw:
            raw.write("".join(line + "\n" for line in console.lines))
            raw.close()
    if boot is None:
        return outcome
    version = (console.version or "Xen (no version banner)").split(" (")[0]
    vpmu = "; ".join(console.vpmu) or "no VPMU line (vPMU off)"
    outcome.emulator = (f"{version}"
                        f"{f' ({package[0]} {package[2]})' if package else ''}, "
                        f"{vpmu}; {qemu_version(qemu_for(target, opts))}, TCG -cpu "
                        f"{target['cpu']}")
    judge_end(boot, judge, outcome, timeout)
    return outcome
