"""The kind "qemu": Debian's QEMU boots pmctest, by the GRUB ISO or PVH.

Parameters: accel ("tcg" or "kvm"), cpu (the -cpu model), machine (the
-M machine, "" for QEMU's default, pc), firmware ("bios" or "uefi": OVMF)
and fallbacks: (stderr text, -cpu suffix, why), retried once each when
QEMU fails to start with that text on stderr."""
import os
import re
import shutil

from ..boot.process import ProcessLines
from ..boot.qemu import (OVMF, kvm_version, kvm_why_not, qemu_command,
                         qemu_machines, qemu_release, qemu_version, smp)
from .kind import Kind, ProcessStream, new_outcome


class Qemu(Kind):
    NAME = "qemu"

    @property
    def binary(self):
        return self.programs.qemu

    def why_not(self):
        if not shutil.which(self.binary):
            return f"{self.binary} not found (Debian: qemu-system-x86)"
        return self.machine_why_not()

    def machine_why_not(self):
        """What this QEMU and host lack for the target's accelerator,
        firmware and machine."""
        p = self.target.params
        if p["accel"] == "kvm" and kvm_why_not():
            return kvm_why_not()
        if p["firmware"] == "uefi" and not os.path.exists(OVMF):
            return f"no {OVMF} (Debian: ovmf)"
        if p["machine"] and not re.search(rf"^{re.escape(p['machine'])}\s",
                                          qemu_machines(self.binary), re.M):
            return f"QEMU has no -M {p['machine']}"
        return None

    def host(self):
        """The words boot() gives its outcome's host: QEMU's release (with
        KVM's kernel under KVM)."""
        kvm = self.target.params["accel"] == "kvm"
        return qemu_release(self.binary) + (", " + kvm_version() if kvm else "")

    def command(self, launch, cpu):
        t = self.target
        iso = launch.isos.iso(launch.cmdline) if t.route == "iso" else None
        return qemu_command(self.binary, t.params["accel"], cpu, t.route,
                            elf=self.programs.elf, iso=iso,
                            cmdline=launch.cmdline, machine=t.params["machine"],
                            firmware=t.params["firmware"], qemu_args=smp(t.cpus))

    def boot(self, launch):
        kvm = self.target.params["accel"] == "kvm"
        versions = [qemu_version(self.binary)] + ([kvm_version()] if kvm else [])
        outcome = new_outcome("; ".join(versions), self.host())
        return QemuStream(self, launch, outcome)


class QemuStream(ProcessStream):
    """QEMU's boot, retried with a -cpu fallback where QEMU refused to
    start with the fallback's text on stderr."""

    def __init__(self, kind, launch, outcome):
        self.kind = kind
        self.launch = launch
        self.cpu = kind.target.params["cpu"]
        super().__init__(self.attempt(), outcome)

    def attempt(self):
        return ProcessLines(self.kind.command(self.launch, self.cpu),
                            self.launch.timeout)

    def lines(self):
        tried = set()
        while True:
            yield from self.source.lines()
            retry = self.fallback(tried)
            if not retry:
                return
            text, suffix, why = retry
            tried.add(suffix)
            note = (f"{why} (stderr: \"{text}\"); retrying with "
                    f"-cpu {self.cpu}{suffix}")
            self.result.notes.append(note)
            self.launch.note(note)
            self.cpu += suffix
            self.source = self.attempt()

    def fallback(self, tried):
        """The fallback to retry with, where QEMU wrote no line at all."""
        source = self.source
        if source.serial.started or source.serial.preamble:
            return None
        for text, suffix, why in self.kind.target.params["fallbacks"]:
            if text in source.ending.stderr and suffix not in tried:
                return text, suffix, why
        return None

    def finish(self, judge, outcome):
        end = self.source.ending
        if end.fatal:
            rip = re.search(r"^EIP=(\S+).*CPL=(\d)", end.stderr, re.M)
            outcome.problem = (f"QEMU stopped the guest: {end.fatal}" +
                               (f" (EIP {rip.group(1)}, CPL {rip.group(2)})"
                                if rip else ""))


class CountingQemu(Qemu):
    """The kind "qemu-pmu": the same boots on the QEMU with the TCG PMU
    (tests/qemu-pmu/, docs/counting-tcg.md), which make builds into a
    cache outside the clone (make qemu-pmu)."""

    NAME = "qemu-pmu"

    @property
    def binary(self):
        return self.programs.qemu_pmu

    def images(self):
        return ["qemu-pmu"]

    def why_not(self):
        return counting_qemu_why_not(self.programs.qemu_pmu) or \
            self.machine_why_not()

    def images_missing(self):
        return missing_counting_qemu(self.programs.qemu_pmu)


def missing_counting_qemu(binary):
    """Where make's build neither made the QEMU with the TCG PMU nor said
    why it could not: what is missing."""
    if os.access(binary, os.X_OK) or os.path.exists(
            os.path.join(os.path.dirname(binary), "unavailable")):
        return None
    return f"{binary} was not built, and nothing says why"


def counting_qemu_why_not(binary):
    """Why the QEMU with the TCG PMU cannot run, or None: the reason make's
    build wrote beside the binary (no network, no apt), or that it is not
    built."""
    if os.access(binary, os.X_OK):
        return None
    try:
        with open(os.path.join(os.path.dirname(binary),
                                      "unavailable")) as f:
            why = f.read().strip()
    except OSError:
        why = ""
    if why:
        return f"no QEMU with the TCG PMU: {why}"
    return (f"{binary} is not built (make qemu-pmu: Debian's QEMU source "
            "with tests/qemu-pmu/patches)")
