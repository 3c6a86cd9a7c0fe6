"""The kind "xen": Xen under QEMU TCG with pmctest as its PVH dom0. The
kernel's lines are those Xen prints after "(d0) " (the kernel finds no
UART, COM1 being Xen's, and writes to port E9H).

Parameters: version (the Xen: a version of hosttools/images/xen.py,
Debian's package of it, which make images fetches into
BUILD/xen-VERSION/, or your own build for that version's targets:
tests/run --xen VERSION=PATH), xen_args (words added to Xen's command
line, e.g. "vpmu=on"), cpu (QEMU's -cpu), outer ("qemu", or "qemu-pmu":
the QEMU with the TCG PMU, whose counters Xen's vPMU drives) and bare
(the target of bare QEMU TCG with the same -cpu, which make test compares
it with: tests/run --diff)."""
import os
import re
import shutil

from ..boot.process import ProcessLines
from ..boot.qemu import DEBUG_EXIT, qemu_devices, qemu_release, qemu_version
from ..boot.xen_console import XenConsole, version_words
from ..images.xen import VERSIONS, image_dir, image_path, read_info, unavailable
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
    keeps_console = True

    @property
    def version(self):
        return self.target.params["version"]

    @property
    def own(self):
        """The path of your own Xen for this version's targets, or None."""
        return self.programs.xen.get(self.version)

    @property
    def image(self):
        return self.own or image_path(self.programs.build, self.version)

    @property
    def qemu(self):
        return (self.programs.qemu_pmu if self.target.params["outer"] == "qemu-pmu"
                else self.programs.qemu)

    def images(self):
        return [f"xen-{self.version}"] + (
            ["qemu-pmu"] if self.target.params["outer"] == "qemu-pmu" else [])

    def images_missing(self):
        folder = image_dir(self.programs.build, self.version)
        if not self.own and read_info(folder) is None and unavailable(folder) is None:
            return (f"{folder} has no Xen {self.version} (make images: "
                    f"make xen-{self.version}), and nothing says why")
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

    def image_why_not(self):
        """Why there is no Xen image to boot, or None."""
        xen = self.image
        if self.own and not os.path.isfile(xen):
            return f"no Xen image at {xen} (--xen {self.version}={xen})"
        if not self.own and read_info(os.path.dirname(xen)) is None:
            why = unavailable(os.path.dirname(xen))
            package = VERSIONS[self.version]["package"]
            return (f"no Xen {self.version} image: {why}" if why else
                    f"no Xen {self.version} image in {os.path.dirname(xen)} "
                    f"(make xen-{self.version} fetches Debian's {package}; "
                    f"XEN=path XEN_VERSION={self.version} for your own)")
        return None

    def xen_why_not(self):
        elf = self.programs.elf
        why = self.image_why_not()
        if why:
            return why
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
                "-kernel", self.image,
                "-append", " ".join(filter(None, [XEN_CMDLINE, p["xen_args"]])),
                "-initrd", module] + DEBUG_EXIT

    def boot(self, launch):
        outcome = new_outcome("")
        fetched = self.note_image(launch, outcome)
        console = XenConsole(0, self.xen_line(launch))
        source = ProcessLines(self.command(launch.cmdline), launch.timeout,
                              console=console)
        return XenStream(source, outcome, self, fetched, launch.console_log)

    def note_image(self, launch, outcome):
        """Which Xen boots, in the run's notes (a changed pin in the
        outcome too): Debian's package and version ("fetched"), which it
        returns, or None for a Xen of your own."""
        info = None if self.own else read_info(os.path.dirname(self.image))
        fetched = info and f"{info['package']} {info['version']}"
        if info and info["pinned"] != fetched:
            outcome.changed = (f"Xen changed: {info['pinned']} is pinned, the "
                               f"archive had {info['version']}")
            launch.note(f"{outcome.changed}: a result that differs from the "
                        "expectations is Xen's change, not pmctest's")
        elif info:
            launch.note(f"xen: {fetched} (the pinned version)")
        else:
            launch.note(f"xen: {self.image}, a Xen of your own for the Xen "
                        f"{self.version} targets (XEN=path)")
        return fetched

    def xen_line(self, launch):
        """What the runner does with Xen's own lines: its version banner
        is noted whole in the log, and its version in a few words ("Xen
        version 4.20.4 (Debian 4.20.4+63-g7abfd2bce2-0+deb13u1)") and its VPMU
        lines (vpmu_init(): "VPMU: version 0.1" where it turned its vPMU
        on) join the log's header comments as "# xen: ...", which an
        expectation file's "# header:" lines can require."""
        def line(text):
            if text.startswith("Xen version"):
                launch.note(f"xen: {text}")
                return [f"# xen: {version_words(text)}"]
            if text.startswith("VPMU"):
                return [f"# xen: {text}"]
            return []
        return line


class XenStream(ProcessStream):
    """Xen's boot: its whole console kept beside the log, the emulator
    named as Xen says it is, and the host (an expectation file's "# host:"
    line) as QEMU's release, the CPU and the Xen that ran: a Xen other
    than the file's (your own, or a newer package where the pinned one is
    gone) is another host, whose differences are reported, not failed."""

    def __init__(self, source, outcome, kind, fetched, console_log):
        super().__init__(source, outcome)
        self.kind = kind
        self.fetched = fetched
        self.console_log = console_log

    def lines(self):
        return lines_keeping_console(self.source, self.console_log)

    def finish(self, judge, outcome):
        xen, xen_host = xen_words(self.source.console, self.fetched)
        cpu = self.kind.target.params["cpu"]
        outcome.emulator = f"{xen}; {qemu_version(self.kind.qemu)}, TCG -cpu {cpu}"
        outcome.host = f"{qemu_release(self.kind.qemu)} TCG -cpu {cpu}, {xen_host}"


def lines_keeping_console(source, console_log):
    """The kernel's lines from source (its console Xen's); once they end,
    Xen's whole console written to console_log, if one is asked for."""
    try:
        yield from source.lines()
    finally:
        if console_log:
            with open(console_log, "w") as raw:
                raw.write("".join(line + "\n" for line in source.console.lines))


def xen_words(console, fetched):
    """What Xen's console says of the Xen that ran: for the run's emulator
    line (its banner, Debian's package if fetched, its VPMU lines) and for
    the host ("Xen 4.20.5-pre (Debian ...)")."""
    banner = console.version or "Xen (no version banner)"
    vpmu = "; ".join(console.vpmu) or "no VPMU line (vPMU off)"
    emulator = f"{banner.split(' (')[0]}{f' ({fetched})' if fetched else ''}, {vpmu}"
    return emulator, version_words(banner).replace("Xen version", "Xen", 1)
