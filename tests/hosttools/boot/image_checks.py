"""What a boot needs before an emulator starts, checked on the host: an ELF
that is pmctest's kind of kernel, an ISO that is an ISO 9660 image, a
machine that can boot the route, and enough memory for it. Each check gives
None or why not, in words a user can act on."""
import math
import re
import struct

MIB = 1 << 20
# The least guest memory (MiB) the loaders need: GRUB from SeaBIOS boots
# the ISO in 4 MiB (not in 3; QEMU 7.2); on OVMF, Debian 12's GRUB 2.06
# boots in 48 (not in 32), Debian 13's GRUB 2.12 with OVMF 2025.02 in 80
# (not in 72: "could not allocate all requested memory").
ISO_MIN_MEMORY = {"bios": 4, "uefi": 80}
# Machines with no CD-ROM drive and no firmware that boots one.
NO_CDROM_MACHINES = ("microvm",)


def read_head(path, size):
    try:
        with open(path, "rb") as f:
            return f.read(size), None
    except OSError as e:
        return None, f"{path}: {e.strerror}"


def elf_problem(path):
    """None if path is an x86-64 ELF executable, else why not."""
    head, error = read_head(path, 64)
    if error:
        return error
    if len(head) < 64 or head[:4] != b"\x7fELF":
        return f"{path} is not an ELF file"
    if head[4] != 2 or head[5] != 1:
        return f"{path} is not a 64-bit little-endian ELF file"
    e_type, e_machine = struct.unpack_from("<HH", head, 16)
    if e_machine != 62 or e_type != 2:
        return f"{path} is not an x86-64 ELF executable"
    return None


def elf_end(path):
    """The highest physical address the ELF's loadable segments reach."""
    with open(path, "rb") as f:
        data = f.read()
    phoff, = struct.unpack_from("<Q", data, 32)
    phentsize, phnum = struct.unpack_from("<HH", data, 54)
    end = 0
    for i in range(phnum):
        p_type, _, _, _, p_paddr, _, p_memsz = struct.unpack_from(
            "<IIQQQQQ", data, phoff + i * phentsize)
        if p_type == 1:
            end = max(end, p_paddr + p_memsz)
    return end


def iso_problem(path):
    """None if path holds an ISO 9660 volume descriptor, else why not."""
    head, error = read_head(path, 0x8006)
    if error:
        return error
    if head[0x8001:0x8006] != b"CD001":
        return f"{path} is not an ISO 9660 image"
    return None


def qemu_option(args, names):
    """The value the last of the options names takes in args (a list)."""
    value = None
    for i, arg in enumerate(args[:-1]):
        if arg in names:
            value = args[i + 1]
    return value


def machine_of(machine, qemu_args):
    """The -M machine a boot gets: QEMU takes the last one given."""
    value = qemu_option(qemu_args, ("-M", "-machine")) or machine or ""
    for part in value.split(","):
        if "=" not in part or part.startswith("type="):
            return part.split("=")[-1]
    return ""


def memory_of(memory, qemu_args):
    """The guest memory in MiB (None if QEMU_ARGS' -m does not parse)."""
    value = qemu_option(qemu_args, ("-m",))
    if value is None:
        return memory
    for part in value.split(","):
        if "=" not in part or part.startswith("size="):
            m = re.fullmatch(r"([0-9]+(?:\.[0-9]+)?)([MG]?)i?B?",
                             part.split("=")[-1], re.I)
            if not m:
                return None
            return float(m.group(1)) * (1024 if m.group(2).upper() == "G" else 1)
    return memory


def route_problem(route, machine, firmware):
    if route == "iso" and machine in NO_CDROM_MACHINES:
        return (f"-M {machine} has no CD-ROM drive and no firmware that boots "
                "one: boot the ELF by PVH instead")
    return None


def memory_problem(route, firmware, megs, elf=None):
    """Why megs MiB of guest memory cannot boot the route, or None."""
    if route == "iso":
        need = ISO_MIN_MEMORY.get(firmware, ISO_MIN_MEMORY["bios"])
        who = "OVMF" if firmware == "uefi" else "GRUB from SeaBIOS"
    else:
        need = math.ceil(elf_end(elf) / MIB)
        who = f"the kernel (its image ends at {elf_end(elf):#x})"
    if megs < need:
        return (f"-m {megs:g}: {who} needs at least {need} MiB of guest memory")
    return None
