"""Whether a target can boot on this host."""
import os
import re
import shutil

from ..boot import OVMF
from ..targets import VMMS

from .bochs import BOCHS_ROMS, BOCHS_VGA_ROMS, bochs_models, first_existing
from .nested import nested_availability
from .probe import cached, command_output
from .qemu_pmu import qemu_pmu_unavailable
from .xen import qemu_has_amd_iommu, xen_unavailable


def vmm_binary(opts, emulator):
    return getattr(opts, emulator.replace("-", "_"))


def availability(target, opts):
    """(True, "") or (False, why not, in words a user can act on)."""
    if target["emulator"] in VMMS:
        binary = vmm_binary(opts, target["emulator"])
        if not shutil.which(binary):
            return False, f"{binary} not found ({VMMS[target['emulator']]})"
        if not os.path.exists("/dev/kvm"):
            return False, "no /dev/kvm"
        if not os.access("/dev/kvm", os.R_OK | os.W_OK):
            return False, "/dev/kvm is not readable and writable"
    if target["emulator"] == "nested":
        if not shutil.which(opts.qemu):
            return False, f"{opts.qemu} not found (Debian: qemu-system-x86)"
        ok, why = nested_availability(target, opts)
        if not ok:
            return ok, why
    elif target["emulator"] == "xen":
        if not shutil.which(opts.qemu):
            return False, f"{opts.qemu} not found (Debian: qemu-system-x86)"
        if not os.path.isfile(opts.xen):
            why = xen_unavailable(opts.xen)
            return False, (f"no Xen image: {why}" if why else
                           f"no Xen image at {opts.xen} (make test fetches "
                           "Debian's with apt-get download; XEN=path for "
                           "your own)")
        if not qemu_has_amd_iommu(opts.qemu):
            return False, "QEMU has no amd-iommu device (a PVH dom0 needs one)"
        if "," in opts.elf or " " in opts.elf:
            return False, (f"{opts.elf}: a path with a comma or a space "
                           "cannot be Xen's module under QEMU")
    elif target["emulator"] == "qemu" and target.get("qemu_pmu"):
        if not os.access(opts.qemu_pmu, os.X_OK):
            return False, qemu_pmu_unavailable(opts.qemu_pmu)
    elif target["emulator"] == "qemu":
        if not shutil.which(opts.qemu):
            return False, f"{opts.qemu} not found (Debian: qemu-system-x86)"
        if target["accel"] == "kvm":
            if not os.path.exists("/dev/kvm"):
                return False, "no /dev/kvm"
            if not os.access("/dev/kvm", os.R_OK | os.W_OK):
                return False, "/dev/kvm is not readable and writable"
        if target.get("firmware") == "uefi" and not os.path.exists(OVMF):
            return False, f"no {OVMF} (Debian: ovmf)"
        if target["machine"]:
            machines = cached(("qemu-machines", opts.qemu), lambda: command_output(
                [opts.qemu, "-machine", "help"]))
            if not re.search(rf"^{re.escape(target['machine'])}\s", machines,
                             re.M):
                return False, f"QEMU has no -M {target['machine']}"
    else:
        if target.get("kernel"):
            ok, why = nested_availability(target, opts)
            if not ok:
                return ok, why
        if not shutil.which(opts.bochs):
            return False, (f"{opts.bochs} not found "
                           "(Debian: bochs bochsbios vgabios bochs-term)")
        if opts.bochs == "bochs" and not first_existing(BOCHS_ROMS):
            return False, "no Bochs BIOS image (Debian: bochsbios)"
        if opts.bochs == "bochs" and not first_existing(BOCHS_VGA_ROMS):
            return False, "no VGA BIOS image (Debian: vgabios)"
        models = bochs_models(opts.bochs)
        if models and target["cpu"] not in models:
            return False, f"this Bochs has no cpu model {target['cpu']}"
    if target["route"] == "iso" and not shutil.which("grub-mkrescue"):
        return False, ("grub-mkrescue not found "
                       "(Debian: grub-common grub-pc-bin xorriso mtools)")
    if not os.path.exists(opts.elf):
        return False, f"{opts.elf} does not exist (run make)"
    return True, ""
