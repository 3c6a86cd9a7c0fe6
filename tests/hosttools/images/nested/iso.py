"""A GRUB ISO of a nested boot, for emulators that have no -kernel (Bochs):
GRUB loads the kernel's bzImage with Linux's boot protocol and the
initramfs as two files, the images' archive (compressed: GRUB reads the
emulated CD slowly) and the run's; the kernel unpacks both."""
import gzip
import os
import shutil
import subprocess
import tempfile

from .outer import l1_cmdline

GRUB_CFG = """serial --unit=0 --speed=115200
terminal_input serial
terminal_output serial
set timeout=0
menuentry "pmctest on KVM" {{
  linux /boot/bzImage {cmdline}
  initrd /boot/base.cpio.gz /boot/run.cpio
  boot
}}
"""


def make_iso(images, run_archive, out, l1_args=()):
    """The ISO at out; images is a built directory (build.py) whose kernel
    came as a bzImage; l1_args: words for L1's command line. RuntimeError
    says what failed."""
    bzimage = os.path.join(images, "bzImage")
    if not os.path.exists(bzimage):
        raise RuntimeError(f"{images} has no bzImage for GRUB to load")
    tree = tempfile.mkdtemp(prefix="kvm-iso-", dir=os.path.dirname(out))
    try:
        boot = os.path.join(tree, "boot")
        os.makedirs(os.path.join(boot, "grub"))
        shutil.copy(bzimage, os.path.join(boot, "bzImage"))
        with open(os.path.join(images, "initrd.cpio"), "rb") as f, \
                open(os.path.join(boot, "base.cpio.gz"), "wb") as g:
            g.write(gzip.compress(f.read(), 1))
        with open(os.path.join(boot, "run.cpio"), "wb") as f:
            f.write(run_archive)
        with open(os.path.join(boot, "grub", "grub.cfg"), "w") as f:
            f.write(GRUB_CFG.format(cmdline=l1_cmdline(l1_args)))
        p = subprocess.run(["grub-mkrescue", "-o", out, tree],
                           stdin=subprocess.DEVNULL, capture_output=True,
                           text=True)
        if p.returncode:
            raise RuntimeError("grub-mkrescue failed: " + p.stderr.strip())
    finally:
        shutil.rmtree(tree, ignore_errors=True)
    return out
