"""Whether a target can boot on this host."""
import os
import re
import shutil

from ..boot import OVMF
from ..targets import VMMS

from .bochs import (BOCHS_ROMS, BOCHS_VGA_ROMS, bochs_binary, bochs_models,
                    first_existing)
from .bochs_pmu import bochs_pmu_unavailable
from .nested import nested_availability
from .probe import cached, command_output
from .qemu import qemu_for
from .qemu_pmu import qemu_pmu_unavailable
from .xen import qemu_has_amd_iommu, xen_unavailable


def vmm_binary(opts, emulator):
    return getattr(opts, emulator.replace("-", "_"))


def kvm_why_not():
    if not os.path.exists("/dev/kvm"):
        return "no /dev/kvm"
    if not os.access("/dev/kvm", os.R_OK | os.W_OK):
        return "/dev/kvm is not readable and writable"
    return None


def qemu_why_not(opts):
    return None if shutil.which(opts.qemu) else f"{opts.qemu} not found (Debian: qemu-system-x86)"


def nested_why_not(target, opts):
    ok, why = nested_availability(target, opts)
    return None if ok else why


def vmm_why_not(target, opts):
    binary = vmm_binary(opts, target["emulator"])
    if not shutil.which(binary):
        return f"{binary} not found ({VMMS[target['emulator']]})"
    return kvm_why_not()


def xen_why_not(target, opts):
    if not os.path.isfile(opts.xen):
        why = xen_unavailable(opts.xen)
        return (f"no Xen image: {why}" if why else
                f"no Xen image at {opts.xen} (make test fetches "
                "Debian's with apt-get download; XEN=path for "
                "your own)")
    if not qemu_has_amd_iommu(qemu_for(target, opts)):
        return "QEMU has no amd-iommu device (a PVH dom0 needs one)"
    if "," in opts.elf or " " in opts.elf:
        return (f"{opts.elf}: a path with a comma or a space "
                "cannot be Xen's module under QEMU")
    return None


def qemu_target_why_not(target, opts):
    if target["accel"] == "kvm" and kvm_why_not():
        return kvm_why_not()
    if target.get("firmware") == "uefi" and not os.path.exists(OVMF):
        return f"no {OVMF} (Debian: ovmf)"
    if target["machine"]:
        machines = cached(("qemu-machines", opts.qemu), lambda: command_output(
            [opts.qemu, "-machine", "help"]))
        if not re.search(rf"^{re.escape(target['machine'])}\s", machines, re.M):
            return f"QEMU has no -M {target['machine']}"
    return None


def bochs_why_not(target, opts):
    if target.get("kernel") and nested_why_not(target, opts):
        return nested_why_not(target, opts)
    bochs = bochs_binary(target, opts)
    if target.get("bochs_pmu") and not os.access(bochs, os.X_OK):
        return bochs_pmu_unavailable(bochs)
    if not shutil.which(bochs):
        return (f"{bochs} not found "
                "(Debian: bochs bochsbios vgabios bochs-term)")
    if bochs in ("bochs", opts.bochs_pmu) and not first_existing(BOCHS_ROMS):
        return "no Bochs BIOS image (Debian: bochsbios)"
    if bochs in ("bochs", opts.bochs_pmu) and not first_existing(BOCHS_VGA_ROMS):
        return "no VGA BIOS image (Debian: vgabios)"
    models = bochs_models(bochs)
    if models and target["cpu"] not in models:
        return f"this Bochs has no cpu model {target['cpu']}"
    return None


def qemu_pmu_why_not(opts):
    """The QEMU with the TCG PMU (make qemu-pmu) is there to run."""
    return None if os.access(opts.qemu_pmu, os.X_OK) else qemu_pmu_unavailable(opts.qemu_pmu)


def any_qemu_why_not(target, opts):
    if target.get("qemu_pmu"):
        return qemu_pmu_why_not(opts)
    return qemu_why_not(opts) or qemu_target_why_not(target, opts)


# What each emulator needs beyond the VMMs' binary and /dev/kvm (a VMM
# needs nothing more); any other is Bochs.
def tcg_qemu_why_not(target, opts):
    """The QEMU a nested or Xen target runs in: --qemu-pmu or --qemu."""
    return (qemu_pmu_why_not(opts) if target.get("qemu_pmu")
            else qemu_why_not(opts))


EMULATOR_WHY_NOT = {
    "nested": lambda target, opts: (tcg_qemu_why_not(target, opts) or
                                    nested_why_not(target, opts)),
    "xen": lambda target, opts: (tcg_qemu_why_not(target, opts) or
                                 xen_why_not(target, opts)),
    "qemu": any_qemu_why_not,
    **{vmm: lambda target, opts: None for vmm in VMMS},
}


def availability(target, opts):
    """(True, "") or (False, why not, in words a user can act on)."""
    emulator = target["emulator"]
    why = ((vmm_why_not(target, opts) if emulator in VMMS else None) or
           EMULATOR_WHY_NOT.get(emulator, bochs_why_not)(target, opts))
    if not why and target["route"] == "iso" and not shutil.which("grub-mkrescue"):
        why = ("grub-mkrescue not found "
               "(Debian: grub-common grub-pc-bin xorriso mtools)")
    if not why and not os.path.exists(opts.elf):
        why = f"{opts.elf} does not exist (run make)"
    return (False, why) if why else (True, "")
