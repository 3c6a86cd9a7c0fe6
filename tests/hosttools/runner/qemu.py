"""One boot in QEMU, as an Outcome: tests/boot.py's command line and boot,
plus the versions and the -cpu fallbacks."""
import os
import re
from types import SimpleNamespace

from .. import boot as qemu_boot

from .boot_outcome import judge_end, start
from .cmdline import kernel_cmdline
from .outcome import Outcome
from .probe import cached, command_output


def qemu_version(qemu):
    out = cached(("qemu-version", qemu),
                 lambda: command_output([qemu, "--version"]))
    return out.splitlines()[0].strip() if out.strip() else "QEMU (unknown)"


def qemu_release(qemu):
    """"QEMU 7.2": the version without its patch level, which changes no
    result (QEMU's stable releases fix crashes, not emulation)."""
    m = re.search(r"version (\d+\.\d+)", qemu_version(qemu))
    return f"QEMU {m.group(1)}" if m else "QEMU (unknown)"


def kvm_version():
    return f"KVM in Linux {os.uname().release}"


def qemu_for(target, opts):
    """The QEMU binary a target runs on: --qemu-pmu for the TCG PMU's."""
    return opts.qemu_pmu if target.get("qemu_pmu") else opts.qemu


def qemu_command(opts, accel, cpu, machine, route, cmdline, iso=None,
                 firmware="bios", cpus=1, qemu=None):
    """tests/boot.py's QEMU command line for one boot of opts.elf, with
    cpus vCPUs, on qemu (default: --qemu)."""
    return qemu_boot.qemu_command(SimpleNamespace(
        qemu=qemu or opts.qemu, memory=64, accel=accel, cpu=cpu, machine=machine,
        route=route, elf=opts.elf, iso=iso, cmdline=cmdline,
        qemu_args=f"-smp {cpus}" if cpus > 1 else "", firmware=firmware))


def run_qemu(target, opts, ctx, judge, timeout):
    outcome = Outcome()
    qemu = qemu_for(target, opts)
    versions = [qemu_version(qemu)]
    if target["accel"] == "kvm":
        versions.append(kvm_version())
    outcome.emulator = "; ".join(versions)
    outcome.host = qemu_release(qemu) + (
        ", " + kvm_version() if target["accel"] == "kvm" else "")
    cmdline = kernel_cmdline(opts, ctx.excluded, target)
    cpu = target["cpu"]
    tried = set()
    while True:
        iso = ctx.isos.iso(cmdline) if target["route"] == "iso" else None
        cmd = qemu_command(opts, target["accel"], cpu, target["machine"],
                           target["route"], cmdline, iso,
                           target.get("firmware", "bios"), target.get("cpus", 1),
                           qemu)
        boot = start(cmd, timeout, judge, outcome, "QEMU")
        if boot is None:
            return outcome
        retry = None
        if boot.verdict()[1] and not boot.lines:
            for text, suffix, why in target.get("fallbacks", []):
                if text in boot.stderr and suffix not in tried:
                    retry = (suffix, why)
                    break
        if retry:
            suffix, why = retry
            tried.add(suffix)
            note = (f"{why} (stderr: \"{text}\"); retrying with "
                    f"-cpu {cpu}{suffix}")
            outcome.notes.append(note)
            judge.out(f"# run: {note}")
            cpu += suffix
            continue
        break
    judge_end(boot, judge, outcome, timeout)
    if boot.fatal:
        rip = re.search(r"^EIP=(\S+).*CPL=(\d)", boot.stderr, re.M)
        outcome.problem = (f"QEMU stopped the guest: {boot.fatal}" +
                           (f" (EIP {rip.group(1)}, CPL {rip.group(2)})"
                            if rip else ""))
    return outcome
