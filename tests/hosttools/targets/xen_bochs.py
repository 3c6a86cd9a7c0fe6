"""The kind "xen-bochs": Xen in the counting Bochs 3.0, pmctest its PVH
dom0, so Xen's Intel side (VMX, EPT, its vpmu_intel.c over counters that
count). Bochs has no -kernel: GRUB's ISO boots Xen by Multiboot2 with the
ELF as its module (scripts/mkiso, MKISO_XEN). The kernel's lines are those
Xen prints after "(d0) " on COM1, as under QEMU (boot/xen_console.py).

Bochs emulates no IOMMU (no VT-d, no DMAR table), and Xen 4.17 and 4.20
panic building a PVH dom0 without one ("Presently, iommu must be enabled
for PVH hardware domain", arch_iommu_check_autotranslated_hwdom() in
xen/drivers/passthrough/x86/iommu.c) unless dom0-iommu=none skips that
check (check_hwdom_reqs() in xen/drivers/passthrough/iommu.c). Xen's
early boot reads IA32_MISC_ENABLE with a plain RDMSR
(intel_unlock_cpuid_leaves(), xen/arch/x86/cpu/intel.c), which Bochs'
models lack: unknown MSRs read 0 (ignore_bad_msrs=1), as for nested L1.

Parameters: version and xen_args as the kind "xen" (hosttools/targets/
xen.py), cpu (Bochs' cpu: model=)."""
import os
import tempfile

from .. import SCRIPTS, procs
from ..boot.bochs import bochs_lines, bochsrc_text
from ..boot.xen_console import XenConsole
from ..images.xen import image_dir, read_info, unavailable
from .bochs import (BochsStream, bochs_why_not, counting_bochs_missing,
                    counting_bochs_why_not)
from .kind import new_outcome
from .xen import Xen, lines_keeping_console, xen_words

# Xen's command line in Bochs: the kind "xen"'s (XEN_CMDLINE) with
# dom0-iommu=none for the IOMMU Bochs lacks.
XEN_BOCHS_CMDLINE = ("dom0=pvh dom0-iommu=none dom0_mem=16M dom0_max_vcpus=1 "
                     "console=com1 com1=115200,8n1 guest_loglvl=all loglvl=all "
                     "noreboot")
MEGS = 1024
BOCHS_CPU = "ignore_bad_msrs=1"


class XenBochs(Xen):
    NAME = "xen-bochs"
    keeps_console = True

    @property
    def bochs(self):
        return self.programs.bochs_pmu

    def images(self):
        return [f"xen-{self.version}", "bochs-pmu"]

    def images_missing(self):
        folder = image_dir(self.programs.build, self.version)
        if not self.own and read_info(folder) is None and unavailable(folder) is None:
            return (f"{folder} has no Xen {self.version} (make images: "
                    f"make xen-{self.version}), and nothing says why")
        return counting_bochs_missing(self.bochs)

    def why_not(self):
        return (counting_bochs_why_not(self.bochs) or
                bochs_why_not(self.bochs, self.target.params["cpu"]) or
                self.image_why_not())

    def iso(self, launch):
        """The GRUB ISO of this boot: Xen with its command line, the ELF
        its module with the kernel's."""
        out = os.path.join(launch.workdir, self.target.name + ".iso")
        args = " ".join(filter(None, [XEN_BOCHS_CMDLINE,
                                      self.target.params["xen_args"]]))
        code, text = procs.run(
            [os.path.join(SCRIPTS, "mkiso"), self.programs.elf, out, launch.cmdline],
            timeout=300, env=dict(os.environ, TMPDIR=launch.workdir,
                                  MKISO_XEN=self.image, MKISO_XEN_ARGS=args))
        if code:
            raise RuntimeError("scripts/mkiso failed: " + text.decode(
                "utf-8", "replace").strip())
        return out

    def boot(self, launch):
        outcome = new_outcome("")
        fetched = self.note_image(launch, outcome)
        iso = self.iso(launch)
        work = tempfile.mkdtemp(prefix=self.target.name + "-", dir=launch.workdir)
        rc = bochsrc_text(self.target.params["cpu"], 1, BOCHS_CPU, MEGS, iso,
                          os.path.join(work, "com1.txt"),
                          os.path.join(work, "bochs.log"))
        console = XenConsole(0, self.xen_line(launch))
        source = bochs_lines(self.bochs, work, rc, launch.timeout, console=console)
        return XenBochsStream(source, launch, self, fetched, outcome.changed)


class XenBochsStream(BochsStream):
    """Xen's boot in Bochs: its whole console kept beside the log, the
    emulator and the host ("# host:") as Bochs, its CPU model and the Xen
    that ran."""

    def __init__(self, source, launch, kind, fetched, changed):
        super().__init__(source, launch.keep)
        self.kind = kind
        self.fetched = fetched
        self.changed = changed
        self.console_log = launch.console_log

    def lines(self):
        return lines_keeping_console(self.source, self.console_log)

    def outcome(self, judge):
        o = super().outcome(judge)
        console = self.source.console
        if o.status is None and console.fatal and not self.source.ending.timed_out:
            o.problem = f"Xen stopped the guest: {panic_words(console)}"
        xen, xen_host = xen_words(console, self.fetched)
        cpu = self.kind.target.params["cpu"]
        o.emulator = f"{xen}; {o.emulator} {cpu}"
        o.host = f"{o.host} {cpu}, {xen_host}"
        o.changed = self.changed
        return o


def panic_words(console):
    """The line that says Xen stopped, with a panic's reason: the line
    after "Panic on CPU N:" ("Presently, iommu must be enabled for PVH
    hardware domain")."""
    lines = console.xen_lines
    if console.fatal in lines:
        after = [l for l in lines[lines.index(console.fatal) + 1:]
                 if l.strip() and not l.startswith("****")]
        if console.fatal.startswith("Panic") and after:
            return f"{console.fatal} {after[0]}"
    return console.fatal
