"""One GRUB ISO per kernel command line: the GRUB route bakes the command
line into the ISO."""
import os
import threading

from .. import SCRIPTS, procs


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
                # mkiso's own scratch files go under the workdir too
                code, text = procs.run(
                    [os.path.join(SCRIPTS, "mkiso"), self.elf, out, cmdline],
                    timeout=300, env=dict(os.environ, TMPDIR=self.workdir))
                if code:
                    raise RuntimeError("scripts/mkiso failed: " + text.decode(
                        "utf-8", "replace").strip())
                self.made[cmdline] = out
            return self.made[cmdline]
