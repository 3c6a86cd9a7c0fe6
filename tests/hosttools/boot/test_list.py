"""What the kernel's list of tests says: which test was running when a boot
stopped, and which tests a run could have had. The TAP names a test only
once it ends, so only this list, from a `list` boot of the same ELF, says
it: under QEMU TCG (fast, and the order is the ELF's, not the target's),
once per command line and tests/run."""
import os
import re
import shutil

from .booted import Boot
from .probe import cached
from .qemu import qemu_command

LISTED = re.compile(r"^(\S+)\s+\[([^\]]*)\]")


def running_test(programs, cmdline, number):
    """The ID of the number-th test a run with cmdline selects."""
    ids = list_tests(programs, cmdline)
    return ids[number - 1] if 0 < number <= len(ids) else None


def list_tests(programs, cmdline):
    """The IDs a run with cmdline selects, in the ELF's order ([] where
    QEMU or the ELF is missing)."""
    if not shutil.which(programs.qemu) or not os.path.exists(programs.elf):
        return []
    return cached(("list", programs.qemu, programs.elf, cmdline),
                  lambda: listed(programs, cmdline))


def listed(programs, cmdline):
    cmd = qemu_command(programs.qemu, "tcg", "max", "pvh", elf=programs.elf,
                       cmdline=" ".join(filter(None, ["list", cmdline])))
    boot = Boot(cmd, 20)
    return [m.group(1) for line in boot.lines for m in [LISTED.match(line)]
            if m and not line.startswith(("#", "pmctest:"))]
