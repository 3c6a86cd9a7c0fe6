"""The kernel modules KVM needs, found in a module tree and put in load
order with what they depend on.

A module's dependencies are in its .modinfo section as "depends=a,b"; the
strings are read from the file's bytes, so neither depmod's modules.dep
(Debian's packages do not ship it: the postinst writes it) nor kmod is
needed. Compressed modules (.ko.xz, .ko.zst, .ko.gz) are unpacked here:
busybox's insmod takes plain ELF."""
import gzip
import lzma
import os
import re
import shutil
import subprocess

# kvm_amd and kvm_intel; the rest is pulled in by "depends=".
ENTRY_MODULES = {"amd": "kvm-amd", "intel": "kvm-intel"}
SUFFIXES = (".ko", ".ko.xz", ".ko.zst", ".ko.gz")


def canonical(name):
    return name.replace("_", "-")


def index(tree):
    """{module name: path} for every module file under tree."""
    found = {}
    for root, _, files in os.walk(tree):
        for f in files:
            for suffix in SUFFIXES:
                if f.endswith(suffix):
                    found.setdefault(canonical(f[:-len(suffix)]),
                                     os.path.join(root, f))
    return found


def plain(path):
    """The module's ELF bytes."""
    with open(path, "rb") as f:
        data = f.read()
    if path.endswith(".xz"):
        return lzma.decompress(data)
    if path.endswith(".gz"):
        return gzip.decompress(data)
    if path.endswith(".zst"):
        if not shutil.which("zstd"):
            raise ValueError(f"{path}: zstd is not installed (Debian: zstd)")
        return subprocess.run(["zstd", "-dcq"], input=data, check=True,
                              capture_output=True).stdout
    return data


def depends(elf):
    m = re.search(rb"(?:^|\0)depends=([^\0]*)\0", elf)
    if not m or not m.group(1):
        return []
    return [canonical(d) for d in m.group(1).decode().split(",") if d]


def load_order(tree, vendors=("amd", "intel")):
    """[(name, ELF bytes)] for the vendors' KVM modules and their
    dependencies, each after what it depends on; an empty list if the tree
    holds no KVM module (KVM built in). ValueError names a missing one."""
    modules = index(tree)
    order, elf_of, visiting = [], {}, set()

    def visit(name, wanted_by):
        if name in elf_of:
            return
        if name not in modules:
            raise ValueError(f"module {name} (needed by {wanted_by}) is not "
                             f"in {tree}")
        if name in visiting:
            raise ValueError(f"module {name} depends on itself")
        visiting.add(name)
        elf = plain(modules[name])
        for dep in depends(elf):
            visit(dep, name)
        elf_of[name] = elf
        order.append(name)

    for vendor in vendors:
        if ENTRY_MODULES[vendor] in modules:
            visit(ENTRY_MODULES[vendor], "KVM")
    return [(name, elf_of[name]) for name in order]
