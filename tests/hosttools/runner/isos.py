"""One GRUB ISO per kernel command line: the GRUB route bakes the command
line into the ISO."""
import os
import subprocess
import threading

from .. import SCRIPTS


class IsoMaker:
    """One GRUB ISO per kernel command line, made once per tests/run with
    scripts/mkiso (the ISO builder make uses too)."""

    def __init__(self, elf, workdir):
        self.elf = elf
        self.workdir = workdir
        self.made = {}
        self.lock = threading.Lock()

    def iso(self, cmdline):
        with self.lock:
            if cmdline not in self.made:
                out = os.path.join(self.workdir, f"pmctest{len(self.made)}.iso")
                p = subprocess.run([os.path.join(SCRIPTS, "mkiso"), self.elf, out,
                                    cmdline], stdin=subprocess.DEVNULL,
                                   stdout=subprocess.PIPE,
                                   stderr=subprocess.STDOUT)
                if p.returncode:
                    raise RuntimeError("scripts/mkiso failed: " + p.stdout.decode(
                        "utf-8", "replace").strip())
                self.made[cmdline] = out
            return self.made[cmdline]
