"""What the kernel's list of tests says: which test was running when a boot
stopped."""
import os
import re
import shutil

from .. import boot as qemu_boot

from .cmdline import kernel_cmdline
from .probe import cached
from .qemu import qemu_command

LISTED = re.compile(r"^(\S+)\s+\[([^\]]*)\]")


def running_test(opts, excluded, number):
    """The ID of the number-th selected test, from a 'list' boot of the same
    ELF under QEMU TCG (fast, and the order is the ELF's, not the target's).
    """
    if not shutil.which(opts.qemu) or not os.path.exists(opts.elf):
        return None
    ids = cached(("list", opts.elf, opts.tests, tuple(excluded)),
                 lambda: list_tests(opts, excluded))
    return ids[number - 1] if 0 < number <= len(ids) else None


def list_tests(opts, excluded):
    cmd = qemu_command(opts, "tcg", "max", "", "pvh",
                       "list " + kernel_cmdline(opts, excluded))
    try:
        boot = qemu_boot.Boot(cmd, 20, False, None)
    except OSError:
        return []
    ids = []
    for line in boot.lines:
        m = LISTED.match(line)
        if m and not line.startswith(("#", "pmctest:")):
            ids.append(m.group(1))
    return ids
