"""The initramfs of a nested KVM boot, from Debian's packages: busybox
(busybox-static), the host's qemu-system-x86_64 (qemu-system-x86) with its
shared libraries and the firmware -M microvm loads, KVM's modules from the
kernel's package (or the user's module tree), and init.sh as /init.

What changes from run to run (the ELF and its command line) is a second
archive, run_archive(): the kernel unpacks both, one after the other."""
import os
import re
import shutil
import subprocess

from . import cpio
from .modules import ENTRY_MODULES, load_order
from .params import insmod_lines, vmm_lines

HERE = os.path.dirname(os.path.abspath(__file__))
INIT = os.path.join(HERE, "init.sh")
# what init.sh makes of the monitor's answers for a hang
GUEST_STATE = os.path.join(HERE, "guest_state.awk")
# What -M microvm -kernel reads from QEMU's data directory (an strace of
# one boot): qboot as the firmware, the PVH option ROM.
QEMU_FIRMWARE = ("bios-microvm.bin", "pvh.bin")
# Debian's QEMU firmware path after its own share/qemu (debian/rules'
# FIRMWAREPATH)
DEBIAN_FIRMWARE_PATH = ("/usr/share/seabios", "/usr/lib/ipxe/qemu")
# where init.sh mounts proc, sysfs and devtmpfs
MOUNT_POINTS = ("proc", "sys", "dev")
# busybox applets init.sh uses
APPLETS = ("sh", "mount", "insmod", "cat", "echo", "grep", "sed", "sort",
           "uniq", "tail", "tee", "mkdir", "dd", "printf", "dmesg", "poweroff",
           "uname", "tr", "sleep", "pidof", "mkfifo", "awk")


def shared_libraries(binary):
    """The absolute paths ldd names for binary, the loader included."""
    out = subprocess.run(["ldd", binary], capture_output=True, text=True,
                         check=True).stdout
    return sorted(set(re.findall(r"(?:=>\s*)?(/\S+)\s+\(0x", out)))


def read(path):
    with open(path, "rb") as f:
        return f.read()


def qemu_binary(qemu="qemu-system-x86_64"):
    """The host's QEMU binary that goes into the initramfs (its real path)."""
    binary = shutil.which(qemu)
    if not binary:
        raise ValueError(f"{qemu} not found (Debian: qemu-system-x86)")
    return os.path.realpath(binary)


def binary_files(binary):
    """{archive path: (bytes, mode)} for a QEMU binary as
    /usr/bin/qemu-system-x86_64, and its shared libraries."""
    files = {"usr/bin/qemu-system-x86_64": (read(binary), 0o755)}
    for lib in shared_libraries(binary):
        # the loader is named by its link path (/lib64/ld-linux-x86-64.so.2)
        files[lib.lstrip("/")] = (read(lib), 0o755)
    return files


def qemu_files(qemu):
    """{archive path: (bytes, mode)} for QEMU, its libraries and firmware."""
    binary = qemu_binary(qemu)
    files = binary_files(binary)
    # QEMU looks for its data next to itself (<bindir>/../share/qemu), and
    # Debian's in its firmware path too: Debian 13's qboot is seabios'
    # /usr/share/seabios/bios-microvm.bin, no longer in share/qemu. In the
    # initramfs each goes to usr/share/qemu/, where L1's QEMU looks first.
    share = os.path.join(os.path.dirname(binary), "..", "share", "qemu")
    for name in QEMU_FIRMWARE:
        found = [os.path.join(d, name) for d in (share, *DEBIAN_FIRMWARE_PATH)
                 if os.path.exists(os.path.join(d, name))]
        if not found:
            raise ValueError(f"{os.path.join(share, name)} does not exist, nor in "
                             f"{', '.join(DEBIAN_FIRMWARE_PATH)} (Debian: "
                             "qemu-system-data, seabios)")
        files["usr/share/qemu/" + name] = (read(found[0]), 0o644)
    return files


def base_archive(busybox, module_tree, qemu="qemu-system-x86_64"):
    """The initramfs (bytes) and a description of what is in it."""
    files = qemu_files(qemu)
    files["bin/busybox"] = (read(busybox), 0o755)
    files["init"] = (read(INIT), 0o755)
    files["guest_state.awk"] = (read(GUEST_STATE), 0o644)
    links = {"bin/" + a: "busybox" for a in APPLETS}
    loaded = []
    for vendor in ENTRY_MODULES:
        order = load_order(module_tree, (vendor,)) if module_tree else []
        for name, elf in order:
            files[f"lib/modules/{name}.ko"] = (elf, 0o644)
        files[f"lib/modules/{vendor}.order"] = (
            "".join(n + "\n" for n, _ in order).encode(), 0o644)
        loaded += [n for n, _ in order if n not in loaded]
    return cpio.archive(files, links, MOUNT_POINTS), loaded


def run_archive(elf, cmdline, kvm_params=(), l1_args=(), vmm_cpu="host",
                vmm_smp=1, vmm=None):
    """The per-run part: /pmctest/pmctest.elf and its command line, KVM's
    module parameters for init.sh's insmods (params.py), the words L1's
    command line was given, which init.sh reads back from /proc/cmdline,
    and the guest's -cpu and vCPUs. vmm, a QEMU binary, replaces the
    initramfs's own (the kernel unpacks this archive after the base one,
    whose files it overwrites), with its shared libraries."""
    files = {
        "pmctest/pmctest.elf": (elf, 0o644),
        "pmctest/args": (cmdline.encode(), 0o644),
        "pmctest/kvm-params": (insmod_lines(kvm_params).encode(), 0o644),
        "pmctest/l1-args": ("".join(w + "\n" for w in l1_args).encode(), 0o644),
        "pmctest/vmm": (vmm_lines(vmm_cpu, vmm_smp).encode(), 0o644)}
    if vmm:
        files.update(binary_files(vmm))
    return cpio.archive(files)
