"""The kind "xen": Xen under QEMU TCG with pmctest as its PVH dom0. The
kernel's lines are those Xen prints after "(d0) " (the kernel finds no
UART, COM1 being Xen's, and writes to port E9H).

Parameters: xen_args (words added to Xen's command line, e.g. "vpmu=on"),
cpu (QEMU's -cpu), outer ("qemu", or "qemu-pmu": the QEMU with the TCG
PMU, whose counters Xen's vPMU drives) and bare (the target of bare QEMU
TCG with the same -cpu, which make test compares it with: tests/run
--diff)."""
import os
import re
import shutil

from ..boot.process import ProcessLines
from ..boot.qemu import DEBUG_EXIT, qemu_devices, qemu_version
from ..boot.xen_console import XenConsole
from ..images.xen import xen_package, xen_unavailable
from .kind import Kind, ProcessStream, new_outcome
from .qemu import counting_qemu_why_not, missing_counting_qemu

# Xen's command line: a PVH dom0 (it needs the IOMMU), small, with one
# vCPU (Xen starts a PVH guest's others by hypercall, not INIT-SIPI-SIPI,
# and its MADT then lists one CPU), Xen's console on COM1 with the guest's
# lines (guest_loglvl=all) and its own info lines (loglvl=all: "VPMU:
# version 0.1"); after dom0 stops, no reboot.
XEN_CMDLINE = ("dom0=pvh iommu=1 dom0_mem=16M dom0_max_vcpus=1 console=com1 "
               "com1=115200,8n1 guest_loglvl=all loglvl=all noreboot")
MEMORY_MIB = 256
# q35: the AMD IOMMU a PVH dom0 needs is a q35 device.
MACHINE = "q35"


class Xen(Kind):
    NAME = "xen"

    @property
    def qemu(self):
        return (self.programs.qemu_pmu if self.target.params["outer"] == "qemu-pmu"
                else self.programs.qemu)

    def images(self):
        return ["xen"] + (["qemu-pmu"] if self.target.params["outer"] == "qemu-pmu"
                          else [])

    def images_missing(self):
        xen = self.programs.xen
        if not os.path.isfile(xen) and xen_unavailable(xen) is None:
            return f"{xen} was not fetched, and nothing says why"
        return (self.target.params["outer"] == "qemu-pmu" and
                missing_counting_qemu(self.qemu)) or None

    def why_not(self):
        if self.target.params["outer"] == "qemu-pmu":
            why = counting_qemu_why_not(self.qemu)
        elif not shutil.which(self.qemu):
            why = f"{self.qemu} not found (Debian: qemu-system-x86)"
        else:
            why = None
        return why or self.xen_why_not()

    def xen_why_not(self):
        xen, elf = self.programs.xen, self.programs.elf
        if not os.path.isfile(xen):
            why = xen_unavailable(xen)
            return (f"no Xen image: {why}" if why else
                    f"no Xen image at {xen} (make test fetches Debian's "
                    "with apt-get download; XEN=path for your own)")
        if not re.search(r'^name "amd-iommu"', qemu_devices(self.qemu), re.M):
            return "QEMU has no amd-iommu device (a PVH dom0 needs one)"
        if "," in elf or " " in elf:
            return (f"{elf}: a path with a comma or a space cannot be Xen's "
                    "module under QEMU")
        return None

    def command(self, cmdline):
        """QEMU boots Xen (a Multiboot kernel) with the ELF as its module;
        a module's command line follows its file name, and QEMU splits
        -initrd at commas, so the kernel's commas are doubled."""
        p = self.target.params
        module = self.programs.elf + (" " + cmdline.replace(",", ",,")
                                      if cmdline else "")
        return [self.qemu, "-nodefaults", "-no-reboot", "-display", "none",
                "-serial", "stdio", "-monitor", "none", "-M", MACHINE,
                "-device", "amd-iommu", "-accel", "tcg",
                "-cpu", p["cpu"], "-m", str(MEMORY_MIB),
                "-kernel", self.programs.xen,
                "-append", " ".join(filter(None, [XEN_CMDLINE, p["xen_args"]])),
                "-initrd", module] + DEBUG_EXIT

    def boot(self, launch):
        outcome = new_outcome("")
        package = xen_package(self.programs.xen)
        if package and package[1] != package[2]:
            outcome.changed = (f"Xen changed: {package[0]} {package[1]} is "
                               f"pinned, the archive had {package[2]}")
            launch.note(f"{outcome.changed}: a result that differs from the "
                        "expectations is Xen's change, not pmctest's")
        elif package:
            launch.note(f"xen: {package[0]} {package[2]} (the pinned version)")
        else:
            launch.note(f"xen: {self.programs.xen}, a Xen of your own (XEN=path)")
        console = XenConsole(0, self.xen_line(launch))
        source = ProcessLines(self.command(launch.cmdline), launch.timeout,
                              console=console)
        return XenStream(source, outcome, self, package, launch.console_log)

    def xen_line(self, launch):
        """What the runner does with Xen's own lines: the header names what
        Xen says it is; Xen's VPMU lines (vpmu_init(): "VPMU: version 0.1"
        where it turned its vPMU on) join the log's header comments as
        "# xen: VPMU: ...", which an expectation file's "# header:" lines
        can require."""
        def line(text):
            if text.startswith("Xen version"):
                launch.note(f"xen: {text}")
                return []
            if text.startswith("VPMU"):
                return [f"# xen: {text}"]
            return []
        return line


class XenStream(ProcessStream):
    """Xen's boot: its whole console kept beside the log, and the emulator
    named as Xen says it is."""

    def __init__(self, source, outcome, kind, package, console_log):
        super().__init__(source, outcome)
        self.kind = kind
        self.package = package
        self.console_log = console_log

    def lines(self):
        try:
            yield from self.source.lines()
        finally:
            if self.console_log:
                with open(self.console_log, "w") as raw:
                    raw.write("".join(line + "\n" for line in
                                      self.source.console.lines))

    def finish(self, judge, outcome):
        console, package = self.source.console, self.package
        version = (console.version or "Xen (no version banner)").split(" (")[0]
        vpmu = "; ".join(console.vpmu) or "no VPMU line (vPMU off)"
        outcome.emulator = (
            f"{version}{f' ({package[0]} {package[2]})' if package else ''}, "
            f"{vpmu}; {qemu_version(self.kind.qemu)}, TCG -cpu "
            f"{self.kind.target.params['cpu']}")
