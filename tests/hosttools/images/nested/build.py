"""The images of one nested-KVM target, built into a directory:

  kernel       what the outer QEMU boots: the vmlinux (PVH) where the
               kernel has a PVH entry, else the image as given
  bzImage      the image as given, if it is one: what GRUB loads (iso.py)
  initrd.cpio  the initramfs (initramfs.py)
  kernel.txt   key=value lines: what was built from what (kernel_info)

Debian's kernels are built once into the cache outside the clone
(hosttools/images/cache.py: nested-NAME-KEY/, KEY over the packages'
versions, the host's QEMU that goes into the initramfs and this
builder's sources) and copied from there: a new clone, or one after make
clean, builds nothing again."""
import glob
import hashlib
import os
import re
import shutil
import tempfile

from .. import cache
from .debs import IMAGE_PARTS, IMAGE_PATHS, MODULE_PARTS, Debs, unpack
from .initramfs import base_archive, qemu_binary
from .kernels import BUSYBOX, BUSYBOX_RELEASE, KERNELS, modules_package
from .vmlinux import payload, pvh_kernel

INFO = "kernel.txt"
HERE = os.path.dirname(os.path.abspath(__file__))


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


def busybox_binary(root, work, say):
    """busybox from the cache where a busybox-static is there, else
    fetched: (its path, its version)."""
    debs = Debs(root, BUSYBOX_RELEASE, say)
    kept = sorted(glob.glob(os.path.join(debs.folder, f"{BUSYBOX}_*.deb")))
    if kept:
        deb, version = kept[-1], None
    else:
        deb, version = debs.fetch(BUSYBOX)
    unpack(deb, os.path.join(work, "busybox"), ["./bin/busybox"])
    version = version or os.path.basename(deb).split("_")[1]
    return os.path.join(work, "busybox", "bin", "busybox"), version


def image_key(kernel):
    """16 hex digits over what Debian's kernel's images are made of: the
    pinned packages, the QEMU that goes into the initramfs, and this
    builder. (Where the pin has vanished, the entry holds the newest of
    the series, and its kernel.txt says which.)"""
    h = hashlib.sha256()
    h.update(repr(sorted(kernel.items())).encode())
    with open(qemu_binary(), "rb") as f:
        h.update(hashlib.sha256(f.read()).digest())
    for path in sorted(glob.glob(os.path.join(HERE, "*.py")) +
                       [os.path.join(HERE, n) for n in ("init.sh", "guest_state.awk")]):
        with open(path, "rb") as f:
            h.update(os.path.basename(path).encode() + b"\0" + f.read())
    return h.hexdigest()[:16]


def build_debian(name, out, say, root=None):
    """The images of Debian's kernel KERNELS[name] under out, copied from
    the cache (built there first where they are not)."""
    root = root or cache.default_root()
    entry = os.path.join(root, f"nested-{name}-{image_key(KERNELS[name])}")
    if not read_info(entry):
        with cache.locked(root, os.path.basename(entry), say):
            if not read_info(entry):
                build_entry(name, entry, root, say)
    else:
        say(f"{entry}: the images of {name}, cached")
    # the copy appears whole or not at all: kernel.txt says it is built
    shutil.rmtree(out + ".tmp", ignore_errors=True)
    shutil.copytree(entry, out + ".tmp")
    shutil.rmtree(out, ignore_errors=True)
    os.rename(out + ".tmp", out)
    return read_info(out)


def build_entry(name, entry, root, say):
    """Fetch, unpack and build KERNELS[name]'s images into the cache entry
    (renamed into place whole)."""
    kernel = KERNELS[name]
    work = tempfile.mkdtemp(prefix="kvm-", dir=root)
    try:
        debs = Debs(root, kernel["release"], say)
        deb, package, version = debs.fetch_kernel(kernel)
        tree = os.path.join(work, "linux")
        if "modules" in kernel:
            unpack(deb, tree, IMAGE_PARTS)
            modules, _ = debs.fetch(modules_package(kernel, package), version)
            unpack(modules, tree, MODULE_PARTS)
        else:
            unpack(deb, tree, IMAGE_PARTS + MODULE_PARTS)
        busybox, bb_version = busybox_binary(root, work, say)
        with open(glob_one([os.path.join(tree, p) for p in IMAGE_PATHS]), "rb") as f:
            image = f.read()
        staging = os.path.join(work, "images")
        write_images(staging, image, tree, busybox, dict(
            package=package, version=version,
            pinned=f"{kernel['package']} {kernel['version']}",
            busybox=f"{BUSYBOX} {bb_version}"))
        os.rename(staging, entry)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def build_own(image_path, module_tree, out, say):
    """The images of the user's kernel (a bzImage or a vmlinux with a PVH
    entry) and its module tree (None: KVM built in)."""
    work = tempfile.mkdtemp(prefix="kvm-", dir=os.path.dirname(os.path.abspath(out)))
    try:
        busybox, bb_version = busybox_binary(cache.default_root(), work, say)
        with open(image_path, "rb") as f:
            image = f.read()
        return write_images(out, image, module_tree, busybox, dict(
            package="", version="", pinned="",
            image=os.path.abspath(image_path),
            module_tree=os.path.abspath(module_tree) if module_tree else "",
            busybox=f"{BUSYBOX} {bb_version}"))
    finally:
        shutil.rmtree(work, ignore_errors=True)


def glob_one(patterns):
    """The last path the first pattern that matches any matches."""
    for pattern in patterns:
        found = sorted(glob.glob(pattern))
        if found:
            return found[-1]
    raise ValueError(f"nothing matches {' or '.join(patterns)}")


def read_info(out):
    """kernel.txt of a built directory as a dict, or None."""
    try:
        with open(os.path.join(out, INFO)) as f:
            return dict(l.rstrip("\n").split("=", 1) for l in f if "=" in l)
    except OSError:
        return None
