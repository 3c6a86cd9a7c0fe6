"""The images of one nested-KVM target, built into a directory:

  kernel       what the outer QEMU boots: the vmlinux (PVH) where the
               kernel has a PVH entry, else the image as given
  bzImage      the image as given, if it is one: what GRUB loads (iso.py)
  initrd.cpio  the initramfs (initramfs.py)
  kernel.txt   key=value lines: what was built from what (kernel_info)"""
import os
import re
import shutil
import tempfile

from . import debs
from .initramfs import base_archive
from .kernels import BUSYBOX, KERNELS
from .vmlinux import payload, pvh_kernel

INFO = "kernel.txt"


def linux_version(image):
    """The kernel's version string: a bzImage's header points at it
    ("6.1.0-50-amd64 (debian-kernel@lists.debian.org) #1 SMP ... Debian
    6.1.176-1 (2026-07-02)"); a vmlinux holds it after "Linux version "."""
    if image[0x202:0x206] == b"HdrS":
        ptr = int.from_bytes(image[0x20e:0x210], "little") + 0x200
        end = image.find(b"\0", ptr)
        if 0x200 < ptr < len(image) and end > ptr:
            return image[ptr:end].decode("ascii", "replace").strip()
    m = re.search(rb"Linux version (\d[^\0\n]{0,200})", image)
    return m.group(1).decode("ascii", "replace").strip() if m else None


def release(banner):
    """"6.1.176" from a Debian kernel's version string (its package version
    comes last), else the release the string starts with ("6.13.0-rc1+")."""
    found = re.findall(r"Debian (\d+\.\d+\.\d+)", banner or "")
    return found[-1] if found else (banner or "?").split(" ", 1)[0]


def write_images(out, image, module_tree, busybox, info):
    kernel, how = pvh_kernel(image)
    if kernel is None:
        raise ValueError(how)
    banner = linux_version(image) or linux_version(kernel)
    archive, modules = base_archive(busybox, module_tree)
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "kernel"), "wb") as f:
        f.write(kernel)
    if payload(image) is not None:
        with open(os.path.join(out, "bzImage"), "wb") as f:
            f.write(image)
    with open(os.path.join(out, "initrd.cpio"), "wb") as f:
        f.write(archive)
    info.update(linux=release(banner), banner=banner or "?", boot=how,
                modules=" ".join(modules) or "none (KVM built in?)")
    with open(os.path.join(out, INFO), "w") as f:
        f.writelines(f"{k}={v}\n" for k, v in info.items())
    return info


def busybox_binary(work, say):
    deb, version = debs.fetch_package(BUSYBOX, work, say)
    debs.unpack(deb, os.path.join(work, "busybox"), ["./bin/busybox"])
    return os.path.join(work, "busybox", "bin", "busybox"), version


def build_debian(name, out, say):
    """The images of Debian's kernel KERNELS[name] under out."""
    kernel = KERNELS[name]
    work = tempfile.mkdtemp(prefix="kvm-", dir=os.path.dirname(os.path.abspath(out)))
    try:
        deb, package, version = debs.fetch_kernel(kernel, work, say)
        tree = os.path.join(work, "linux")
        debs.unpack(deb, tree, debs.KERNEL_PARTS)
        images = glob_one(os.path.join(tree, "boot", "vmlinuz-*"))
        busybox, bb_version = busybox_binary(work, say)
        with open(images, "rb") as f:
            image = f.read()
        return write_images(out, image, tree, busybox, dict(
            package=package, version=version,
            pinned=f"{kernel['package']} {kernel['version']}",
            busybox=f"{BUSYBOX} {bb_version}"))
    finally:
        shutil.rmtree(work, ignore_errors=True)


def build_own(image_path, module_tree, out, say):
    """The images of the user's kernel (a bzImage or a vmlinux with a PVH
    entry) and its module tree (None: KVM built in)."""
    work = tempfile.mkdtemp(prefix="kvm-", dir=os.path.dirname(os.path.abspath(out)))
    try:
        busybox, bb_version = busybox_binary(work, say)
        with open(image_path, "rb") as f:
            image = f.read()
        return write_images(out, image, module_tree, busybox, dict(
            package="", version="", pinned="",
            image=os.path.abspath(image_path),
            module_tree=os.path.abspath(module_tree) if module_tree else "",
            busybox=f"{BUSYBOX} {bb_version}"))
    finally:
        shutil.rmtree(work, ignore_errors=True)


def glob_one(pattern):
    import glob
    found = sorted(glob.glob(pattern))
    if not found:
        raise ValueError(f"nothing matches {pattern}")
    return found[-1]


def read_info(out):
    """kernel.txt of a built directory as a dict, or None."""
    try:
        with open(os.path.join(out, INFO)) as f:
            return dict(l.rstrip("\n").split("=", 1) for l in f if "=" in l)
    except OSError:
        return None
