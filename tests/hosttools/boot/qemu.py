"""QEMU's command line for one boot of pmctest, and what a QEMU binary
says of itself."""
import os
import re

from .probe import cached, command_output

OVMF = "/usr/share/ovmf/OVMF.fd"    # Debian's ovmf: UEFI for QEMU
MEMORY_MIB = 64
# OVMF boots get more: Debian 13's GRUB 2.12 with OVMF 2025.02 cannot load
# the kernel in 64 MiB ("could not allocate all requested memory"; it
# boots in 80, image_checks.ISO_MIN_MEMORY), Debian 12's did in 48.
UEFI_MEMORY_MIB = 128


def default_memory(firmware):
    """The guest memory (MiB) a boot with this firmware gets unless told."""
    return UEFI_MEMORY_MIB if firmware == "uefi" else MEMORY_MIB

# (QEMU's exit code) = (kernel status << 1) | 1 with isa-debug-exit.
DEBUG_EXIT = ["-device", "isa-debug-exit,iobase=0xf4,iosize=0x04"]


def qemu_command(qemu, accel, cpu, route, elf=None, iso=None, cmdline="",
                 machine="", firmware="bios", memory=None,
                 qemu_args=()):
    """One boot: COM1 on stdout, no display, no reboot; the GRUB ISO from
    CD (route iso) or the ELF by PVH -kernel (route pvh) with cmdline;
    memory in MiB (None: the firmware's default_memory())."""
    memory = memory or default_memory(firmware)
    cmd = [qemu, "-nodefaults", "-no-reboot", "-display", "none",
           "-serial", "stdio", "-monitor", "none", "-m", str(memory),
           "-accel", accel, "-cpu", cpu] + DEBUG_EXIT
    if machine:
        cmd += ["-M", machine]
    if firmware == "uefi":
        cmd += ["-bios", OVMF]
    if route == "iso":
        cmd += ["-cdrom", iso, "-boot", "d"]
    else:
        cmd += ["-kernel", elf]
        if cmdline:
            cmd += ["-append", cmdline]
    return cmd + list(qemu_args)


def smp(cpus):
    """QEMU's arguments for cpus vCPUs (none for one)."""
    return ["-smp", str(cpus)] if cpus > 1 else []


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


def qemu_machines(qemu):
    return cached(("qemu-machines", qemu),
                  lambda: command_output([qemu, "-machine", "help"]))


def qemu_devices(qemu):
    return cached(("qemu-devices", qemu),
                  lambda: command_output([qemu, "-device", "help"]))


def kvm_why_not():
    if not os.path.exists("/dev/kvm"):
        return "no /dev/kvm"
    if not os.access("/dev/kvm", os.R_OK | os.W_OK):
        return "/dev/kvm is not readable and writable"
    return None
